"""`python -m analyzer` runs the `kda` command."""

from analyzer.cli import main

main()
