"""The report's numbers: build_report and the statistics beside the scores."""
