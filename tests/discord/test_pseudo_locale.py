"""Under a pseudo-locale, no English reaches a player from the converted parts of the adapter.

The pseudo-locale (tests/support/pseudo_locale.py) accents every letter of every catalog
message, so any plain ASCII word left in an answer bypassed the catalogs.  The Discord locale
en-US (the one the fake's interactions carry) is mapped to it for these tests; everything
else runs as in production: discord.py parses the gateway payloads and only Discord's HTTP is
faked.

ALLOWED is the documented allow-list: words that stay English on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import discord_fakes as fakes
import pseudo_locale
import pytest
from discord import app_commands

from bot import i18n
from bot.discord.moderation.cog import LANGUAGE_NAMES as LANGUAGE_NAMES_BY_CODE
from bot.discord.payloads import command_payloads
from bot.discord.play.turns import challenge_embed, turn_message
from bot.discord.replies import refusal_for
from bot.service import (
    Challenge,
    GameInfo,
    GameResult,
    GameSummary,
    Seat,
    SummaryPage,
    TimeControl,
    Waiting,
)
from rules import Game, game_class, game_names, new_game

ALICE = fakes.ALICE
h = fakes.h
close_harnesses = fakes.close_harnesses


def command_words() -> set[str]:
    """Command, subcommand and option names: English in every locale, by design."""
    words: set[str] = set()

    def walk(node: dict[str, Any]) -> None:
        words.add(node["name"])
        for option in node.get("options") or []:
            walk(option)

    for payload in command_payloads():
        walk(payload)
    return words


GAME_TITLES = {game_class(n).title for n in game_names()}
PROPER_NAMES = {"Crosspath", "Mark Steere", "Elo", "UTC"}
"""Names: the bot, the games' author, the rating system, the time zone."""
OPTION_VALUES = {"mention", "dm", "digest", "off", "max", "none", "draw:True", "pie:True"}
"""What a player types as a value (``/notify mode:dm``, ``time:3d+1d max 5d``)."""
BUTTON_LABELS = {"Accept", "Decline", "Cancel", "Join", "Next game"}
"""Button labels the /help text names; the buttons themselves are not converted yet."""
LANGUAGE_NAMES = {
    word
    for name in LANGUAGE_NAMES_BY_CODE.values()
    for word in pseudo_locale.ENGLISH_WORD.findall(name)
}
"""Each language by its own name (``/admin settings language``): the same in every locale."""
CLDR_WORDS = {"and"}
"""Lists are joined by Babel from CLDR (``Tongue.listing``), not the catalogs; the
pseudo-locale has no CLDR data and joins them the English way."""
ALLOWED = (
    GAME_TITLES
    | PROPER_NAMES
    | OPTION_VALUES
    | BUTTON_LABELS
    | CLDR_WORDS
    | LANGUAGE_NAMES
    | command_words()
)


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    pseudo_locale.install()
    monkeypatch.setitem(i18n.DISCORD_LOCALES, "en-US", pseudo_locale.PSEUDO)
    yield
    i18n.tongue.cache_clear()


def leaks(text: str) -> list[str]:
    return pseudo_locale.english_words(text, ALLOWED)


def test_the_check_catches_english_and_passes_pseudo_text() -> None:
    assert leaks("Your turn, Alice") == ["Your", "turn", "Alice"]
    assert leaks("2 stones removed") == ["stones", "removed"]  # "move" is allowed, not "removed"
    assert leaks(pseudo_locale.pseudo("Your move on {point}, see /board")) == []
    assert leaks("Minefield rules: /challenge `crosspath sync`") == []


def test_every_command_description_and_choice_goes_through_the_catalogs() -> None:
    found = []
    for payload in command_payloads():
        stack = [payload]
        while stack:
            node = stack.pop()
            stack += node.get("options") or []
            stack += node.get("choices") or []
            for field in ("description", "name"):
                if field == "name" and "value" not in node:
                    continue  # command and option names stay English
                shown = (node.get(f"{field}_localizations") or {}).get("en-US", node.get(field))
                if shown and leaks(shown):
                    found.append(shown)
    assert not found, found


async def test_help_speaks_the_players_language(h: Any) -> None:
    [answer] = await h.command("help", ALICE)
    assert answer.ephemeral
    text = answer.embed_text()
    assert "［" in text
    assert not leaks(text), leaks(text)


@pytest.mark.parametrize("game", game_names())
async def test_rules_summary_title_and_footer_speak_the_players_language(h: Any, game: str) -> None:
    """The summary (goal, special rules, pie option, sizes) is translated; the attached rule
    sheet stays Mark Steere's English, the authority, as the footer says."""
    [answer] = await h.command("rules", ALICE, game=game)
    [embed] = answer.embeds
    assert embed["title"].startswith("［" + game_class(game).title)
    assert not leaks(embed["title"]) and not leaks(embed["footer"]["text"])
    summary = embed["description"]
    assert summary.startswith("［") and not leaks(summary.replace("marksteeregames.com", "")), (
        summary
    )


async def test_an_unexpected_error_apologises_in_the_players_language(
    h: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("bot.discord.info.cog.help_embed", broken)
    answer = fakes.refusal(await h.command("help", ALICE))
    assert answer.content.startswith("［") and not leaks(answer.content), answer.content


async def test_a_command_from_a_dm_is_refused_in_the_players_language(h: Any) -> None:
    payload = fakes.user_installed(h.payloads.command("board", ALICE), ALICE, "dm")
    answer = fakes.refusal(await h.run(payload))
    assert answer.content.startswith("［") and not leaks(answer.content), answer.content


@pytest.mark.parametrize(
    "error",
    [
        app_commands.CommandNotFound("x", []),
        app_commands.MissingPermissions(["manage_guild"]),
        app_commands.NoPrivateMessage(),
        app_commands.BotMissingPermissions(["attach_files"]),
        app_commands.CommandOnCooldown(app_commands.Cooldown(1, 5.0), 4.2),
        app_commands.CheckFailure(),
    ],
    ids=lambda e: type(e).__name__,
)
def test_every_adapter_refusal_goes_through_the_catalogs(error: Exception) -> None:
    text = refusal_for(error, i18n.tongue(pseudo_locale.PSEUDO))
    assert text is not None and text.startswith("［")
    # Discord's permission names are English in its own API (e.g. "Attach Files")
    assert not leaks(text.replace("Attach Files", "")), text


# ----- turn messages and challenges, rendered directly (pure builders of service results) -----
NOW = datetime(2026, 11, 28, 12, tzinfo=UTC)
NAMES = {1: "Ann", 2: "Ben", 7: "Mod"}


def embed_text(embed: dict[str, Any]) -> str:
    """What a player reads in an embed: title, description, fields, footer."""
    parts = [embed.get("title", ""), embed.get("description", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    parts.append((embed.get("footer") or {}).get("text", ""))
    return "\n".join(parts)


def played(name: str, moves: int, seed: int = 1) -> tuple[Game, list[str]]:
    game, rng, points = new_game(name, 7), random.Random(seed), []
    for _ in range(moves):
        if game.is_over:
            break
        point = rng.choice(game.legal_moves())
        game.play(point)
        points.append(point)
    return game, points


def info_of(name: str, moves: int, result: GameResult | None = None, **extra: Any) -> Any:
    game, points = played(name, moves)
    active = result is None
    info = GameInfo(
        id=3, guild_id=9, channel_id=8, game=name, title=game.title, size=7,
        status="active" if active else "finished",
        seats=(Seat(1, game.players[0]), Seat(2, game.players[1])),
        to_move_colour=game.players[0] if active else None, to_move_id=1 if active else None,
        turn_number=len(points) + 1, version=1, record=" ".join(points), moves=tuple(points),
        time_control=TimeControl.bank_of(3 * 86400, 86400, 5 * 86400), turn_started_at=NOW,
        deadline=NOW + timedelta(days=1) if active else None, takeback=None, result=result,
        created_at=NOW, updated_at=NOW, **extra,
    )  # fmt: skip
    return game, info


@pytest.mark.parametrize("name", sorted(game_names()))
@pytest.mark.parametrize("moves", [0, 1, 7, 40])
def test_turn_messages_speak_the_channels_language(name: str, moves: int) -> None:
    tr = i18n.tongue(pseudo_locale.PSEUDO)
    game, info = info_of(name, moves, time_left={1: 180000, 2: 72000}, paused_until=NOW)
    for computer in (None, 1):
        message = turn_message(info, game, NAMES, None, None, computer, tr=tr)
        text = message.content + "\n" + embed_text(message.embed.to_dict())
        assert not leaks(text.replace("Ann", "").replace("Ben", "")), text


@pytest.mark.parametrize("reason", ["connection", "draw", "resign", "time", "abort", "award"])
def test_game_endings_speak_the_channels_language(reason: str) -> None:
    tr = i18n.tongue(pseudo_locale.PSEUDO)
    actor = 7 if reason in ("abort", "award") else None
    result = GameResult(reason, 1, "red", 2, "blue", actor)  # type: ignore[arg-type]
    for name in ("crosscut", "minefield"):
        game, info = info_of(name, 5, result)
        message = turn_message(info, game, NAMES, None, tr=tr)
        assert message.content.startswith("［") and not leaks(message.content), message.content


def test_challenges_speak_the_channels_language() -> None:
    tr = i18n.tongue(pseudo_locale.PSEUDO)
    for opponent, status in ((2, "open"), (None, "open"), (2, "accepted")):
        challenge = Challenge(
            id=5, guild_id=9, channel_id=8, challenger_id=1, opponent_id=opponent,
            game="minefield", title="Minefield", size=7, first="random",
            time_control=TimeControl.bank_of(3 * 86400, 86400, 5 * 86400), status=status,  # type: ignore[arg-type]
            created_at=NOW, expires_at=NOW + timedelta(hours=4),
        )  # fmt: skip
        embed = challenge_embed(challenge, None, tr).to_dict()
        text = embed_text(embed)  # the clock too: "3 days + 1 day a turn, at most 5 days"
        assert not [w for w in leaks(text) if w not in {"accepted"}], text  # status: service's


def labels(view: Any) -> list[str]:
    return [item.item.label for item in view.children]


def test_buttons_are_labelled_in_the_viewers_language() -> None:
    from bot.discord.clocks.soft_time import SoftTimeButton
    from bot.discord.play.aborts import AbortButton
    from bot.discord.play.flows import ResignButton, TakebackButton, challenge_view

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    views = [challenge_view(5, False, tr), challenge_view(5, True, tr)]
    views += [b.pair(3, 1, tr) for b in (ResignButton, TakebackButton, AbortButton, SoftTimeButton)]
    for view in views:
        for label in labels(view):
            assert label.startswith("［") and not leaks(label), label
    # the ids a press is rebuilt from do not depend on the language
    assert [i.item.custom_id for i in challenge_view(5, False, tr).children] == [
        i.item.custom_id for i in challenge_view(5, False).children
    ]


@pytest.mark.parametrize("status", [None, 403, 500])
def test_board_not_posted_notices_speak_the_players_language(status: int | None) -> None:
    from bot.discord.play.posting import MOVE_DONE, Posted, not_posted

    response = type("Response", (), {"status": status or 500, "reason": "x"})()
    error: Exception | None = None
    if status == 403:
        error = discord.Forbidden(response, "no")  # type: ignore[arg-type]
    elif status == 500:
        error = discord.HTTPException(response, "no")  # type: ignore[arg-type]
    text = not_posted(MOVE_DONE, Posted(None, error), i18n.tongue(pseudo_locale.PSEUDO))
    assert text.startswith("［") and not leaks(text), text


def summary(game_id: int, **extra: Any) -> GameSummary:
    fields: dict[str, Any] = {
        "id": game_id, "guild_id": 9, "channel_id": 8, "game": "minefield", "title": "Minefield",
        "size": 7, "status": "active", "first_id": 1, "second_id": 2, "to_move_id": 1,
        "to_move_colour": "black", "deadline": None, "updated_at": NOW, "result": None,
        "version": 1, "time_left": {1: 180000, 2: 72000},
    }  # fmt: skip
    fields.update(extra)
    return GameSummary(**fields)


def test_game_lists_speak_the_players_language() -> None:
    from bot.discord.play.game_lists import page_text, page_view

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    games = (
        summary(1),
        summary(2, to_move_id=2),
        summary(
            3,
            status="finished",
            to_move_id=None,
            time_left=None,
            result=GameResult("resign", 2, "white", 1, "black", 1),
        ),
        summary(
            4,
            status="aborted",
            to_move_id=None,
            time_left=None,
            result=GameResult("abort", None, None, None, None, 7),
        ),
    )
    waiting = [Waiting(games[0], NOW)]
    for kind in ("mine", "active"):
        for page in (SummaryPage(games, "1.5"), SummaryPage((), None)):
            text = page_text(kind, page, 1, waiting, tr=tr)  # type: ignore[arg-type]
            assert not leaks(text), text
            view = page_view(kind, page, 1, next_game=True, tr=tr)  # type: ignore[arg-type]
            assert view is not None and not leaks(" ".join(labels(view)))


def test_dms_and_digests_speak_the_players_last_seen_language() -> None:
    from bot.discord.notices.dms import Delivery, digest_text, fallback_text
    from bot.discord.speech import SeenLocales
    from bot.service import Digest

    seen = SeenLocales(limit=2)
    seen.saw(1, "en-US")  # mapped to the pseudo-locale here
    seen.saw(2, "de")
    seen.saw(3, "fr")  # the oldest (1) is forgotten: English again
    assert seen.tongue_of(3).language == "fr" and seen.tongue_of(1).language == i18n.ENGLISH
    seen.saw(1, "en-US")
    tr = seen.tongue_of(1)
    assert tr.language == pseudo_locale.PSEUDO
    games = tuple(Waiting(summary(i), NOW) for i in range(1, 60))
    text = digest_text(Digest(user_id=1, games=games, more=3, next_digest=NOW), tr)
    assert len(text) <= 2000 and text.startswith("［") and not leaks(text), text
    _, info = info_of("minefield", 2)
    for delivery in (Delivery.CLOSED, Delivery.FAILED):
        assert not leaks(fallback_text(info, delivery, tr))


@pytest.mark.parametrize("stopped", [0, 1, 3])
def test_vacations_speak_the_right_language(stopped: int) -> None:
    from bot.discord.clocks.vacation import ended_text, notice_text, started_text
    from bot.service import PausedGame, Vacation

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    games = tuple(PausedGame(i, 9, 8, 1, 2, NOW, None) for i in range(stopped))
    vacation = Vacation(1, True, NOW, NOW + timedelta(days=7), 7, 2026, 7, 30, games)
    for text in (started_text(vacation, tr), ended_text(vacation, tr)):
        assert not leaks(text), text
    for game in games:
        for started in (True, False):
            assert not leaks(notice_text(game, started, tr))
    assert started_text(vacation).endswith("23 of 30 vacation days left in 2026.")


def test_rating_texts_speak_the_channels_language() -> None:
    from bot.discord.ratings.leaderboards import pool_title, standing_line
    from bot.discord.ratings.rating_reset import question
    from bot.service.ratings.types import Standing

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    standing = Standing(5, 1510.0, 80.0, 4, 3, 1, 0, True, 2)
    assert not leaks(standing_line(standing, {}, tr))
    assert not leaks(question("minefield+pie", tr)) and "Minefield" in pool_title(
        "minefield+pie", tr
    )


def test_server_settings_speak_the_admins_language() -> None:
    from bot.discord.moderation.cog import saved_text
    from bot.service import GuildSettings

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    text = saved_text(GuildSettings(9, use_threads=False), tr)
    assert text.startswith("［") and not leaks(text), text  # the default clock too


# ----- a whole game at the wire -----------------------------------------------------------------
def shown_text(sent: Any) -> str:
    """Everything a player reads in one request the bot sent: text, embeds, button labels."""
    message = sent.message
    parts = [str(message.get("content") or "")]
    parts += [embed_text(e) for e in message.get("embeds") or []]
    for row in message.get("components") or []:
        parts += [str(c.get("label") or "") for c in row.get("components", [])]
    # attachments' descriptions: the board's alt text, worded by render/ in the channel's language
    parts += [f.description or "" for f in sent.files]
    return "\n".join(p for p in parts if p)


async def test_a_whole_game_at_the_wire_speaks_only_through_the_catalogs(h: Any) -> None:
    """Challenge, accept, moves, a refused move, a takeback asked and refused, /board, /games,
    a resignation: every word the bot sends went through the catalogs, the service's refusal
    and why the game is unrated too."""
    bob = fakes.BOB
    info = await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    refused = fakes.refusal(await h.command("move", ALICE, point="d4"))  # not Alice's turn
    await h.command("move", bob, point="b2")
    [ask] = [s for s in await h.command("takeback", bob) if s.custom_ids]
    refuse = next(c for c in ask.custom_ids if ":no:" in c)
    await h.click(refuse, ALICE)
    await h.command("board", ALICE)
    await h.command("games", ALICE)
    [confirm] = [s for s in await h.command("resign", bob) if s.custom_ids]
    await h.click(next(c for c in confirm.custom_ids if ":yes:" in c), bob)
    assert refused.content.startswith("［") and not leaks(refused.content), refused.content
    rating = await h.service.ratings.game_rating(info.id)
    assert not rating.rated  # too short: the game-over message says why, translated
    texts = [shown_text(s) for s in h.fake.sent]
    assert sum("［" in t for t in texts) >= 10, texts
    alts = [f.description or "" for s in h.fake.sent for f in s.files]
    assert alts and all(a.startswith("［") for a in alts), alts  # the boards' alt texts
    # the players' names, and the record's notation ("minefield 5: c3 b2", the engine's)
    plain = [t.replace("Alice", "").replace("Bob", "").replace(info.game, "") for t in texts]
    leaked = [(t, leaks(t)) for t in plain if t and leaks(t)]
    assert not leaked, leaked[:3]


async def test_service_and_rules_refusals_at_the_wire_speak_the_players_language(h: Any) -> None:
    """Refusals worded by the service (a self-challenge, a time control it cannot read, a
    channel with no game, not your turn) and by the rules engine (an occupied point, a point
    off the board, whose message quotes the board's columns and rows) reach the player
    translated, with the points and the text they typed kept as given."""
    bob = fakes.BOB
    answers = [
        fakes.refusal(await h.command("move", ALICE, point="c3")),  # no game here yet
        fakes.refusal(await h.command("challenge", ALICE, game="minefield", opponent=ALICE)),
        fakes.refusal(
            await h.command("challenge", ALICE, game="minefield", opponent=bob, time="soon")
        ),
    ]
    await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    answers.append(fakes.refusal(await h.command("move", ALICE, point="d4")))  # Bob's turn
    answers.append(fakes.refusal(await h.command("move", bob, point="c3")))  # occupied
    answers.append(fakes.refusal(await h.command("move", bob, point="z9")))  # off the board
    for answer in answers:
        text = answer.content
        assert text.startswith("［") and not leaks(text.replace("'soon'", "")), text
    assert "c3" in answers[4].content and "z9" in answers[5].content
    assert "'soon'" in answers[2].content  # what was typed, quoted as given


@pytest.mark.parametrize("fmt", ["round_robin", "swiss", "knockout", "league"])
@pytest.mark.parametrize("status", ["registration", "running", "finished"])
def test_tournament_announcements_speak_the_channels_language(fmt: str, status: str) -> None:
    import dataclasses

    from bot.discord.tournaments.cog import list_line
    from bot.discord.tournaments.flows import announcement_embed, announcement_view
    from bot.service import TournamentInfo

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    fields = {f.name: None for f in dataclasses.fields(TournamentInfo)}
    info = TournamentInfo(
        **{
            **fields,
            "id": 3,
            "guild_id": 9,
            "channel_id": 8,
            "organiser_id": 1,
            "game": "minefield",
            "title": "Minefield",
            "size": 7,
            "format": fmt,
            "status": status,
            "time_control": TimeControl.bank_of(3 * 86400, 86400, 5 * 86400),
            "rated": True,
            "min_players": 2,
            "max_players": None,
            "player_ids": (1, 2),
            "round": 1,
            "rounds": 3 if fmt == "swiss" else None,
            "match_games": 1,
            "season": 1,
        }
    )
    embed = announcement_embed(info, None, tr).to_dict()
    text = embed_text(embed) + "\n" + list_line(info, tr)
    assert not leaks(text), text
    view = announcement_view(info, tr)
    if view is not None:
        assert not leaks(" ".join(labels(view)))


def test_tournament_pairings_legend_and_podium_speak_the_channels_language() -> None:
    from bot.discord.tournaments.flows import legend, pairing_line, podium_text, title_of
    from bot.service import PairingInfo, StandingRow, TournamentInfo

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    pairing = {f: None for f in PairingInfo.__dataclass_fields__}
    for second, game in ((None, None), (2, 7)):
        line = pairing_line(PairingInfo(**{**pairing, "first_id": 1, "second_id": second,
                                          "game_id": game, "result": None}), tr)  # fmt: skip
        assert not leaks(line), line
    assert not leaks(legend(["BH-1", "SB", "H2H"], tr))
    info = TournamentInfo(**{**{f: None for f in TournamentInfo.__dataclass_fields__},
                             "id": 3, "title": "Minefield", "size": 7, "format": "league",
                             "season": 2})  # fmt: skip
    assert not leaks(title_of(info, tr))
    row = {f: None for f in StandingRow.__dataclass_fields__}
    rows = [StandingRow(**{**row, "user_id": u, "rank": r, "division": 1, "points": p})
            for u, r, p in ((1, 1, 3.0), (2, 2, 1.0), (3, 3, 0.5))]  # fmt: skip
    text, pinged = podium_text(info, rows, tr)
    assert pinged == [1, 2, 3] and not leaks(text), text


@pytest.mark.parametrize("language", [pseudo_locale.PSEUDO, *i18n.SHIPPED])
def test_a_challenge_list_in_any_language_names_its_challenges(language: str) -> None:
    """Its buttons find their challenge by the lines' beginning, in the language it was
    written in: a German list must work for the German player's next press."""
    from bot.discord.challenges.challenge_list import (
        ListPage,
        list_text,
        list_view,
        lists_challenge,
    )

    tr = i18n.tongue(language)
    challenges = [
        Challenge(
            id=i,
            guild_id=9,
            channel_id=8,
            challenger_id=1 if i % 2 else 2,
            opponent_id=None if i == 3 else 1,
            game="minefield",
            title="Minefield",
            size=7,
            first="me",
            time_control=TimeControl.untimed(),
            status="open",
            created_at=NOW,
            expires_at=NOW + timedelta(hours=4),
        )
        for i in (3, 4, 5)
    ]
    page = ListPage(challenges, later=True)
    text = list_text(page, 1, tr=tr)
    message = type("Message", (), {"content": text})()
    assert all(lists_challenge(message, c.id) for c in challenges)  # type: ignore[arg-type]
    assert not lists_challenge(message, 6)  # type: ignore[arg-type]
    if language == pseudo_locale.PSEUDO:
        assert not leaks(text), text
        view = list_view(page, 1, tr)
        assert view is not None and not leaks(" ".join(labels(view)))


# ----- what the service used to word in English (issue 47) ---------------------------------------
CLOCKS = [
    TimeControl.untimed(),
    TimeControl.per_move_of(86400 + 12 * 3600),
    TimeControl.per_move_of(90 * 60),
    TimeControl.bank_of(3 * 86400, 86400, 5 * 86400),
    TimeControl.bank_of(2 * 86400, 0, 2 * 86400),
]


@pytest.mark.parametrize("clock", CLOCKS, ids=TimeControl.describe)
def test_every_kind_of_clock_is_described_through_the_catalogs(clock: TimeControl) -> None:
    tr = i18n.tongue(pseudo_locale.PSEUDO)
    text = tr.say(clock.wording())
    assert text.startswith("［") and not leaks(text), text


def test_durations_take_each_languages_plural() -> None:
    three_days = TimeControl.bank_of(3 * 86400, 86400, 5 * 86400).wording()
    assert str(three_days) == "3 days + 1 day a turn, at most 5 days"
    assert i18n.tongue("ru").say(three_days) == "3 дня + 1 день за ход, не более 5 дней"
    assert i18n.tongue("de").say(TimeControl.per_move_of(5400).wording()) == (
        "1 Stunde 30 Minuten pro Zug"
    )


@pytest.mark.parametrize(
    "reason",
    ["ratings_off", "unrated_game", "computer", "aborted", "too_short", "reset", "before_ratings"],
)
def test_why_a_game_is_unrated_goes_through_the_catalogs(reason: str) -> None:
    from bot.discord.play.turns import rating_text
    from bot.service import GameRating, unrated_wording

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    rating = GameRating(False, reason, "unrated")  # type: ignore[arg-type]
    text = rating_text(rating, NAMES, tr)
    assert text.startswith("［") and not leaks(text), text
    assert str(unrated_wording(reason)) in rating_text(rating, NAMES)  # type: ignore[arg-type]


async def test_a_cancelled_tournament_says_why_in_the_servers_language(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep's reason is the service's wording; the announcement translates it."""
    import dataclasses

    from bot.discord.tournaments.runner import TournamentRunner
    from bot.service import TournamentInfo, TournamentUpdate
    from rules.errors import N_plural, Wording

    fields = {f.name: None for f in dataclasses.fields(TournamentInfo)}
    where = {"id": 3, "guild_id": fakes.GUILD, "channel_id": fakes.CHANNEL}
    info = TournamentInfo(**{**fields, **where})
    forms = N_plural(
        "Registration closed with {players} of the {n} player needed.",
        "Registration closed with {players} of the {n} players needed.",
    )
    update = TournamentUpdate("cancelled", info, Wording.counted(forms, 4, players=1))

    async def nothing(*_: Any) -> None:
        return None

    monkeypatch.setattr("bot.discord.tournaments.runner.refresh_announcement", nothing)
    pseudo = i18n.tongue(pseudo_locale.PSEUDO)
    monkeypatch.setattr("bot.discord.tournaments.runner.of_server", lambda *_: pseudo)
    runner = TournamentRunner(h.bot)
    await runner.announce_sweep(update)
    [sent] = h.fake.sent
    text = str(sent.message.get("content"))
    assert text.startswith("［") and "4" in text and not leaks(text), text


def test_a_profile_says_how_each_recent_game_ended_and_draws_its_chart_in_the_language() -> None:
    from bot.discord.ratings.leaderboards import profile_embed
    from bot.service import Profile
    from bot.service.ratings.types import GameProfile, RatingPoint, RecentGame, Standing
    from render.reports.rating_chart import rating_chart_alt_text

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    reasons = ("connection", "draw", "resign", "time", "abort", "award", "forfeit")
    recent = tuple(
        RecentGame(i, "minefield", 8, 2, ("win", "loss", "draw")[i % 3], reason, NOW,  # type: ignore[arg-type]
                   rated=i % 2 == 0, change=5 if i % 2 == 0 else None)
        for i, reason in enumerate(reasons)
    )  # fmt: skip
    history = tuple(RatingPoint(i, NOW, 1500.0 + 10 * i, 80.0) for i in range(3))
    game = GameProfile("minefield+pie", Standing(1, 1520.0, 80.0, 3, 2, 1, 0, True, 1), 2, 1,
                       history)  # fmt: skip
    embed, chart = profile_embed(Profile(9, 1, True, (game,), recent), "Ann", 9, tr)
    text = embed_text(embed.to_dict()).replace("Ann", "").replace("https://discord.com", "")
    assert not leaks(text), text
    assert chart is not None
    title, points = chart
    for alt in (
        rating_chart_alt_text(points, player="Ann", game=title, tr=tr),
        rating_chart_alt_text((), player="", game=title, tr=tr),
    ):
        assert alt.startswith("［") and not leaks(alt.replace("Ann", "")), alt


def test_the_history_files_header_and_moves_speak_the_language_and_keep_the_record() -> None:
    import dataclasses

    from bot.discord.info.cog import record_text
    from bot.service import GameRecord
    from bot.service.types import HistoryEvent, PlayedMove
    from rules.record import parse_record

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    _, info = info_of("minefield", 6, hints={1: 2, 2: 0})
    info = dataclasses.replace(info, record=f"minefield 7: {info.record}")
    moves = tuple(
        PlayedMove(i, m, 1 + i % 2, info.seats[i % 2].colour, NOW) for i, m in enumerate(info.moves)
    )
    record = GameRecord(info, moves, (HistoryEvent(NOW, "started", 2, "challenge 1"),))
    text = record_text(record, {1: "Ann", 2: "Ben"}, tr)
    head, _, rest = text.partition("\n\n")
    record_line, _, table = rest.partition("\n\n")
    table, _, log = table.partition("\n\n")
    assert not leaks(head.replace("Ann", "").replace("Ben", "")), head
    assert not leaks(table.replace("UTC", "")), table
    assert parse_record(record_line).moves == list(info.moves)  # still the notation
    assert "started" in log  # the stored event log, machine words as written


def test_standings_headings_and_legend_speak_the_language() -> None:
    from bot.discord.tournaments.flows import legend, standings_lines
    from bot.service import StandingRow
    from render.reports.standings import standings_text

    tr = i18n.tongue(pseudo_locale.PSEUDO)
    row = {f: None for f in StandingRow.__dataclass_fields__}
    for tiebreaks in (
        {"sonneborn_berger": 1.0, "head_to_head": 0.0, "wins": 1.0, "rating": 1500.0},
        {"round_reached": 2.0},
    ):
        values = {"user_id": 1, "rank": 1, "division": 1, "points": 1.0, "tiebreaks": tiebreaks,
                  "games_left": 0, "withdrawn": False}  # fmt: skip
        rows = [StandingRow(**{**row, **values})]
        lines, headings = standings_lines(rows, {1: "Ann"}, tr)
        text = standings_text(lines, headings=headings, tr=tr).replace("Ann", "")
        assert not leaks(text) and not leaks(legend(headings, tr)), text
    # the legend names the column as the table heads it, in any language
    de = i18n.tongue("de")
    assert legend([], de).startswith(de.gettext("Left") + " = ")


def test_time_left_is_written_the_languages_way() -> None:
    """``2d 2h`` is English shorthand: each language writes its own units."""
    from bot.discord.clocks.clock_text import caption_names, my_time_left, time_left_line

    _, info = info_of("minefield", 3, time_left={1: 180000, 2: 72000})
    de = i18n.tongue("de")
    assert time_left_line(info, NAMES, de) == "Ann 2 T 2 Std. · Ben 20 Std."
    assert time_left_line(info, NAMES) == "Ann 2d 2h · Ben 20h"
    assert caption_names(info, NAMES, i18n.tongue("ja"))["black"] == "Ann 2日 2時間"
    tr = i18n.tongue(pseudo_locale.PSEUDO)
    for text in (time_left_line(info, NAMES, tr), my_time_left(summary(1), 1, tr)):
        assert text is not None and "［" in text, text
        assert not leaks(text.replace("Ann", "").replace("Ben", "")), text


async def test_a_dm_game_speaks_only_through_the_catalogs(h: Any, clock: Any) -> None:
    """A game in a group DM under a user install: the challenge's "unrated, not on the web",
    every board answered to an interaction, the turn DMs, the mover's note when a DM is
    refused (50007), a reminder and the loss on time by DM: every word went through the
    catalogs."""
    command, click = fakes.dm_command, fakes.dm_click
    bob = fakes.BOB
    [posted] = await command(h, "group", "challenge", ALICE, game="minefield", opponent=bob)
    accept = next(c for c in posted.custom_ids if c.startswith("cp:chal:accept:"))
    await click(h, "group", accept, bob)
    h.fake.closed_dms.add(bob.id)
    await command(h, "group", "move", ALICE, point="c3")
    h.fake.closed_dms.discard(bob.id)
    await command(h, "group", "move", bob, point="d4")
    assert [d.status for d in h.fake.dms_to(bob.id)].count(403) == 1  # the mover was told
    before = len(h.fake.dms_to(ALICE.id))
    clock.advance(days=6)  # past the default bank: a loss on time, by DM to both
    await h.bot.get_cog("ClockCog").run_once()
    assert len(h.fake.dms_to(ALICE.id)) > before
    texts = [shown_text(s) for s in h.fake.sent if s.message]
    assert sum("［" in t for t in texts) >= 6, texts
    # the record's notation ("minefield 5: c3 d4") is the engine's, as in a server game
    plain = [t.replace("Alice", "").replace("Bob", "").replace("minefield", "") for t in texts]
    leaked = [(t, leaks(t)) for t in plain if t and leaks(t)]
    assert not leaked, leaked[:3]
