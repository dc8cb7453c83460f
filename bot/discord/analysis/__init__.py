"""``/analyse`` and the Analyse button: a finished game's computer analysis in Discord."""
