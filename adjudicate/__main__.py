"""`python -m adjudicate` runs the CLI."""

from adjudicate.cli import main

main()
