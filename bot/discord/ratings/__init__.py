"""Ratings: the leaderboard, profiles and resetting ratings."""
