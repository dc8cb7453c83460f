"""Ratings: the model, the types players see, their update when a game finishes, and the
service's reads (leaderboard, profile), reset and rebuild.

* :mod:`.model`: the rating model (Plackett-Luce via openskill), pure and synchronous.
* :mod:`.types`: what the service returns about ratings (standings, profiles, a game's change).
* :mod:`.apply`: the update inside the transaction that finishes a game, and the rebuild.
* :mod:`.service`: :class:`~.service.Ratings`, the sub-service ``GameService.ratings``.
"""
