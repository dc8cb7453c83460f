"""The web's read models: served games and tournaments by their page's token (``service.web``)."""

from .games import MAX_WATCHED, ServedGame, is_token
from .reads import WebReads
from .tournaments import ServedTournament

__all__ = ["MAX_WATCHED", "ServedGame", "ServedTournament", "WebReads", "is_token"]
