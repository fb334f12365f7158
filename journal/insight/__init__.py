"""What the table may want to know beyond the rules: the odds of the position on the table
(`odds`, each game's own module weighing them) and the roads a campaign took (`mapping`)."""
