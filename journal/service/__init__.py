"""The service: a journal read (`reading`, its replays composed in `replays`), decided on
and written to (`journal.Journal`), its states loaded and cached, its campaigns exported
and imported. It speaks to the store, never SQL, and prints nothing."""
