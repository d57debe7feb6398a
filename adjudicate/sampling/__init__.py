"""The sample order and the audit sample: what makes a partial read a random sample."""
