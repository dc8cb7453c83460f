"""Challenges: issuing, accepting and listing them."""
