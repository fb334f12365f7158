"""`python -m journal`: spire, as the `spire` command runs it."""

from journal.process import main

main()
