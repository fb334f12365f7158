"""The journal's own domain, pure: events, the state they fold into, the decision that
checks a command against the rules, and the sentences and hash chain the rest is told
with. It knows no SQL, no Rich and no game by name: a game's rules are asked through
`journal.games`."""
