"""Report images: tables and charts drawn from plain rows (tournament standings, the
leaderboard, a player's rating chart), kept apart from the board drawing they share fonts,
themes and encoding with."""
