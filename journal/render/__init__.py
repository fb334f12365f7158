"""What players see: the lines (`lines`) and tables every command prints, the audit's
findings, the insight commands' answers, the status and the progress of long commands.
Nothing below this layer imports it."""
