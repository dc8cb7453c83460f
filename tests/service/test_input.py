"""Bad input reaches the service and is refused with a specific error, changing nothing.

Each case asserts the error class, a word of its message, that the message quotes at most
about 100 characters of what was given, and that every table is exactly as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, LONGEST_MESSAGE, refused

from bot.service import (
    GameFinished,
    GameInfo,
    GameService,
    IllegalMoveError,
    InvalidChallenge,
    InvalidId,
    InvalidInput,
    InvalidSettings,
    InvalidTimeControl,
    NoTakeback,
    ServiceError,
    StaleAction,
    TimeControl,
)
from bot.store import SettingsRow, Store

GUILD, CHANNEL = 1000, 2000
StartGame = Callable[..., Awaitable[GameInfo]]
Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
NINE: Any = "9"
NOTHING: Any = None
TRUE: Any = True
YES: Any = "yes"
HOUR_AND_A_HALF_SECOND: Any = 3600.5
"""Values of the wrong type, as a careless front end might pass them."""


# ----- a stale action never lands in the next game of the channel ---------------------------


async def test_a_stale_computer_move_does_not_land_in_the_rematch(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    """The reported bug: the computer (BOB) thinks on game 1 at version 1, the human resigns,
    a rematch starts in the same channel and reaches version 1 too; the computer's move for
    game 1 must be refused, not played in game 2."""
    first = await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    seen = await service.get_game(CHANNEL)  # what the computer started thinking on
    assert seen is not None and seen.version == 1 and seen.to_move_id == BOB
    await service.resign(CHANNEL, ALICE)
    second = await start_game("minefield", 9)
    assert second.id != first.id
    await service.play_move(CHANNEL, ALICE, "e5")
    now = await service.get_game(CHANNEL)
    assert now is not None and now.version == seen.version and now.to_move_id == BOB

    await refused(
        snapshot,
        StaleAction,
        service.play_move(CHANNEL, BOB, "d4", expected_version=seen.version, game_id=seen.id),
        "earlier game",
    )
    await refused(
        snapshot,
        StaleAction,
        service.resign(CHANNEL, BOB, expected_version=seen.version, game_id=seen.id),
        "earlier game",
    )
    await refused(
        snapshot, StaleAction, service.play.swap(CHANNEL, BOB, game_id=seen.id), "earlier game"
    )
    # The same move bound to the game it was chosen on is played.
    result = await service.play_move(
        CHANNEL, BOB, "d4", expected_version=now.version, game_id=now.id
    )
    assert result.game.id == second.id and result.game.moves == ("e5", "d4")


async def test_a_stale_takeback_answer_does_not_touch_the_next_game(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    old = await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    await service.play.request_takeback(CHANNEL, ALICE)
    await service.resign(CHANNEL, BOB)
    await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    await service.play.request_takeback(CHANNEL, ALICE)  # a new request in the new game
    await refused(
        snapshot,
        StaleAction,
        service.play.answer_takeback(CHANNEL, BOB, True, game_id=old.id),
        "earlier game",
    )
    await refused(
        snapshot,
        StaleAction,
        service.play.request_takeback(CHANNEL, ALICE, game_id=old.id),
        "earlier game",
    )


async def test_a_stale_action_after_the_game_ended_is_refused(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    info = await start_game("minefield", 9)
    await service.resign(CHANNEL, ALICE)
    await refused(
        snapshot,
        GameFinished,
        service.play_move(CHANNEL, BOB, "d4", expected_version=1, game_id=info.id),
        "over",
    )


# ----- time controls --------------------------------------------------------------------------

BAD_TIME_CONTROLS = [
    pytest.param(TimeControl(0), "between", id="zero"),
    pytest.param(TimeControl(-3600), "between", id="negative"),
    pytest.param(TimeControl(HOUR_AND_A_HALF_SECOND), "whole number", id="fraction"),
    pytest.param(TimeControl(TRUE), "whole number", id="bool"),
    pytest.param(TimeControl(10**13), "between", id="huge"),
    pytest.param(TimeControl(366 * 86400), "between", id="over-a-year"),
    pytest.param(TimeControl(3600, (0,)), "between", id="reminder-zero"),
    pytest.param(TimeControl(3600, (7200,)), "between", id="reminder-after-deadline"),
    pytest.param(TimeControl(None, (-5,)), "between", id="reminder-negative"),
    pytest.param(TimeControl(3600, tuple(range(1, 50))), "at most", id="many-reminders"),
    pytest.param("3x" * 3000, "time per move", id="long-text"),
    pytest.param(12, "TimeControl", id="wrong-type"),
]


@pytest.mark.parametrize(("tc", "says"), BAD_TIME_CONTROLS)
async def test_bad_time_controls_are_refused_when_the_challenge_is_made(
    service: GameService, snapshot: Snapshot, tc: Any, says: str
) -> None:
    await refused(
        snapshot,
        InvalidTimeControl,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5, "me", tc),
        says,
    )


@pytest.mark.parametrize(("tc", "says"), BAD_TIME_CONTROLS)
async def test_bad_time_controls_are_refused_as_server_defaults(
    service: GameService, snapshot: Snapshot, tc: Any, says: str
) -> None:
    await refused(
        snapshot,
        InvalidTimeControl,
        service.moderation.update_settings(GUILD, ADMIN, default_time_control=tc),
        says,
    )


async def test_a_bad_default_stored_earlier_is_refused_at_the_challenge_not_the_accept(
    service: GameService, store: Store, snapshot: Snapshot
) -> None:
    """``TimeControl(10**13)`` saved as a default before checks existed made every accept
    fail with OverflowError; now the challenge itself is refused and nothing is stored."""
    async with store.write() as tx:
        await tx.moderation.save_settings(
            SettingsRow(GUILD, (), False, 10**13, (), (), 86400, updated_at=1)
        )
    await refused(
        snapshot,
        InvalidTimeControl,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5),
        "between",
    )
    # An explicit, sane control still works in that server.
    await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5, "me", "1d")


@pytest.mark.parametrize("text", ["x" * 5000, "1d" * 2500, " " * 4000 + "soon" + "!" * 4000])
def test_time_control_text_is_quoted_briefly_where_it_is_parsed(text: str) -> None:
    """Front ends parse typed text before the service sees it (the Discord transformer does),
    so ``parse`` itself must bound what it quotes."""
    with pytest.raises(InvalidTimeControl, match="time per move") as refusal:
        TimeControl.parse(text)
    message = str(refusal.value)
    assert len(message) <= LONGEST_MESSAGE, f"{len(message)} characters: {message[:300]}"
    assert text.strip()[:20] in message  # still says what was typed


async def test_good_time_controls_still_work(service: GameService) -> None:
    for tc in ("none", "1m", "30d", TimeControl(3600, (1800, 3240)), TimeControl(None, (60,))):
        await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5, "me", tc)
    assert len(await service.challenges.open_challenges(GUILD)) == 5


# ----- ids ------------------------------------------------------------------------------------

BAD_IDS = [
    pytest.param(0, id="zero"),
    pytest.param(-1, id="negative"),
    pytest.param(2**63, id="too-big"),
    pytest.param(10**40, id="huge"),
    pytest.param(None, id="none"),
    pytest.param("1234", id="text"),
    pytest.param(12.0, id="float"),
    pytest.param(True, id="bool"),
]


def calls_with(service: GameService, bad: Any) -> list[Awaitable[Any]]:
    bound = [] if bad is None else [service.play_move(CHANNEL, ALICE, "c3", game_id=bad)]
    return [
        *bound,
        service.create_challenge(bad, CHANNEL, ALICE, BOB, "minefield", 5),
        service.create_challenge(GUILD, bad, ALICE, BOB, "minefield", 5),
        service.create_challenge(GUILD, CHANNEL, bad, BOB, "minefield", 5),
        service.accept_challenge(bad, BOB),
        service.challenges.decline_challenge(1, bad),
        service.play_move(bad, ALICE, "c3"),
        service.play_move(CHANNEL, bad, "c3"),
        service.resign(bad, ALICE),
        service.get_game(bad),
        service.get_game_by_id(bad),
        service.games.games_for_player(GUILD, bad),
        service.moderation.admin_abort(GUILD, bad, CHANNEL),
        service.moderation.update_settings(bad, ADMIN, use_threads=True),
        service.moderation.update_settings(GUILD, ADMIN, allowed_channels=[CHANNEL, bad]),
    ]


@pytest.mark.parametrize("bad", BAD_IDS)
async def test_ids_outside_the_64_bit_range_or_of_the_wrong_type_are_refused(
    service: GameService, start_game: StartGame, snapshot: Snapshot, bad: Any
) -> None:
    await start_game("minefield", 5)
    await service.create_challenge(GUILD, CHANNEL + 1, ALICE, BOB, "minefield", 5)
    for call in calls_with(service, bad):
        await refused(snapshot, InvalidId, call, "id")


# ----- long texts -------------------------------------------------------------------------


async def test_long_game_names_and_moves_are_refused_with_a_short_quote(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield" * 2000),
        "too long",
    )
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "x" * 30),
        "unknown game",
    )
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", NINE),
        "whole number",
    )
    await start_game("minefield", 5)
    error = await refused(
        snapshot, IllegalMoveError, service.play_move(CHANNEL, ALICE, "c3" * 5000), "not a move"
    )
    assert isinstance(error, IllegalMoveError) and len(error.move) <= 100
    await refused(
        snapshot,
        IllegalMoveError,
        service.play_move(CHANNEL, ALICE, NOTHING),
        "not a move",
    )
    await refused(
        snapshot,
        InvalidInput,
        service.moderation.admin_abort(GUILD, ADMIN, CHANNEL, "spam " * 1000),
        "too long",
    )
    await refused(
        snapshot, InvalidInput, service.play.answer_takeback(CHANNEL, BOB, YES), "true or false"
    )
    await refused(
        snapshot, NoTakeback, service.play.answer_takeback(CHANNEL, BOB, True), "no takeback"
    )
    await refused(snapshot, InvalidInput, service.moderation.audit_log(GUILD, 0), "limit")
    await refused(
        snapshot, InvalidInput, service.games.games_for_player(GUILD, ALICE, limit=-1), "limit"
    )
    await refused(
        snapshot,
        InvalidInput,
        service.play_move(CHANNEL, ALICE, "c3", expected_version=-1),
        "version",
    )


# ----- settings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "error", "says"),
    [
        ({"allowed_channels": "2000"}, InvalidSettings, "list of channel ids"),
        ({"allowed_channels": 2000}, InvalidSettings, "list of channel ids"),
        ({"allowed_channels": [2000.5]}, InvalidId, "whole number"),
        ({"allowed_channels": list(range(1, 2000))}, InvalidSettings, "at most"),
        ({"use_threads": "yes"}, InvalidSettings, "true or false"),
        ({"use_threads": 1}, InvalidSettings, "true or false"),
        ({"default_sizes": ["minefield"]}, InvalidSettings, "map game names"),
        ({"default_sizes": {"minefield": "9"}}, InvalidSettings, "whole number"),
        ({"default_sizes": {"minefield": 2}}, InvalidSettings, ""),
        ({"default_sizes": {"x" * 5000: 9}}, InvalidSettings, "too long"),
        ({"default_sizes": {"chess": 9}}, InvalidSettings, "unknown game"),
        ({"challenge_expiry": 3600.5}, InvalidSettings, "whole number"),
        ({"challenge_expiry": True}, InvalidSettings, "whole number"),
        ({"challenge_expiry": 10}, InvalidSettings, "between"),
        ({"default_time_control": 3600}, InvalidTimeControl, "TimeControl"),
    ],
)
async def test_malformed_settings_are_refused(
    service: GameService,
    snapshot: Snapshot,
    changes: dict[str, Any],
    error: type[ServiceError],
    says: str,
) -> None:
    await service.moderation.update_settings(GUILD, ADMIN, default_sizes={"crosscut": 7})
    await refused(
        snapshot, error, service.moderation.update_settings(GUILD, ADMIN, **changes), says
    )
    assert (await service.moderation.get_settings(GUILD)).default_sizes == (("crosscut", 7),)
