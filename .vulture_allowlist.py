"""Names vulture cannot see used: discord.py calls them, or they are data offered on purpose.

Vulture reads this file with the code (``[tool.vulture]`` in pyproject.toml): each name used
below counts as used.  Add a name only when a library calls it or a result carries it for
readers to come, and say which; anything else it reports is dead code to delete.
"""

from typing import Any

_: Any = None

# discord.py calls these on our subclasses (views, dynamic items, transformers, the tree, cogs,
# the bot).
_.callback
_.from_custom_id
_.transform
_.min_value
_.max_value
_.interaction_check
_.on_error
_.setup_hook
_.on_ready
_.on_app_command_completion
_.cog_load
_.cog_unload
_.warn_nacl  # class switches of discord.VoiceClient, set to silence its warnings
_.warn_dave
_.row_factory  # sqlite3.Connection reads it

# Result fields the service fills for any front end, though none shows them yet.
_.requested_at
_.answered_by
_.waiting_since
_.rating_after

# Store rows mirror their table's columns, read or not; mypy's check that an engine matches the
# store interface is a function never called.
_.resolved_at
_.challenges  # StoreContents' field: counts() and copies read every field by name
_.tournament_entrants  # StoreContents' fields too, read only through its dataclass fields
_.tournament_rounds
_.vacations
_.podium_claimed_at  # TournamentRow and CreatorRoleRow fields: the queries, the export and
_.role_id  # the copy name a row's columns from its dataclass fields, never one by one
_.last_seq
_.sigma_before
_._implements_the_interface

# pybabel extract reads these (docs/translating.md): message lists marked with N_ for the
# catalogs, looked up by value at run time.
_.LEVEL_NAMES

# discord.py calls a Modal's on_submit when the form is sent.
_.on_submit
# Puzzle rows mirror their tables' columns (the export and the copy read every field by name).
_.source_game_id
_.tries
_.solves
_.solution_posted
_.puzzle_attempts  # StoreContents' fields, read through its dataclass fields
_.puzzle_ratings
_.puzzle_channels
_.puzzle_daily
# The web templates read it: <html lang="{{ page.html_lang }}"> (bot/web/templates/base.html).
_.html_lang
