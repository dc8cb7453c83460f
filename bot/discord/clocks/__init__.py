"""Clocks: time banks, vacations and soft time."""
