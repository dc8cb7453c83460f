"""Tournaments: the command group, announcements, threads, standings and the podium."""
