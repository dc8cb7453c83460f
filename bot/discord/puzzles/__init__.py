"""Puzzles in Discord: for now the background miner of finished games (issue 48)."""
