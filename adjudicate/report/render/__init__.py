"""The report as text: the terminal, Markdown, HTML, JSON and CSV formats."""
