"""Moderation and per-server settings: every admin action lands in the audit log with its actor."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from game_fixtures import ADMIN, ALICE, BOB

from bot.service import GameInfo, GameService, GuildSettings, TimeControl

GUILD, CHANNEL = 1000, 2000
StartGame = Callable[..., Awaitable[GameInfo]]


async def test_abort_award_forfeit_are_audited(service: GameService, start_game: StartGame) -> None:
    await start_game("minefield", 5, channel=1)
    await start_game("minefield", 5, channel=2)
    await start_game("minefield", 5, channel=3)
    aborted = await service.moderation.admin_abort(GUILD, ADMIN, 1, "spam")
    assert aborted.game.status == "aborted" and aborted.result.winner_id is None
    assert aborted.result.reason == "abort" and aborted.result.actor_id == ADMIN
    awarded = await service.moderation.admin_award(GUILD, ADMIN, 2, BOB, "opponent left")
    assert (awarded.result.winner_id, awarded.result.loser_id) == (BOB, ALICE)
    assert awarded.result.winner_colour == "white"
    forfeited = await service.moderation.admin_forfeit(GUILD, ADMIN, 3, BOB)
    assert (forfeited.result.winner_id, forfeited.result.loser_id) == (ALICE, BOB)
    log = await service.moderation.audit_log(GUILD)
    assert [(e.action, e.actor_id, e.target_id) for e in log] == [
        ("forfeit", ADMIN, BOB),
        ("award", ADMIN, BOB),
        ("abort", ADMIN, None),
    ]
    assert log[2].detail == "spam" and log[2].game_id == aborted.game.id
    assert await service.games.active_games(GUILD) == []
    history = (await service.games.game_record(awarded.game.id)).history
    assert (history[-1].kind, history[-1].user_id, history[-1].detail) == (
        "award",
        ADMIN,
        "opponent left",
    )
    # A new game may start in an aborted game's channel.
    assert (await start_game("minefield", 5, channel=1)).status == "active"


async def test_settings_defaults_merge_and_apply(service: GameService) -> None:
    assert await service.moderation.get_settings(GUILD) == GuildSettings(GUILD)
    updated = await service.moderation.update_settings(
        GUILD,
        ADMIN,
        allowed_channels=[CHANNEL, 7, CHANNEL],
        use_threads=True,
        default_time_control="2d",
        default_sizes={"Minefield": 11, "crosscut": 8},
    )
    assert updated.allowed_channels == (CHANNEL, 7) and updated.use_threads
    assert updated.default_time_control == TimeControl.parse("2d")
    assert updated.size_for("minefield") == 11
    again = await service.moderation.update_settings(GUILD, ADMIN, default_sizes={"crosscut": None})
    assert again.default_sizes == (("minefield", 11),) and again.use_threads
    assert await service.moderation.get_settings(GUILD) == again
    assert await service.moderation.get_settings(GUILD + 1) == GuildSettings(GUILD + 1)

    challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield")
    assert challenge.size == 11 and challenge.time_control.per_move == 2 * 86400
    other = await service.create_challenge(
        GUILD, CHANNEL, ALICE, BOB, "crosscut", 6, "random", "none"
    )
    assert other.size == 6 and other.time_control == TimeControl()

    entries = await service.moderation.audit_log(GUILD)
    assert [e.action for e in entries] == ["settings", "settings"]
    assert json.loads(entries[0].detail) == {"default_sizes": [["minefield", 11]]}
    assert entries[1].actor_id == ADMIN
