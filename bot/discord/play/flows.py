"""What each command and button does, step by step, between Discord and the service.

Order matters for robustness: validate and commit through the service first, then tell
Discord.  If Discord refuses afterwards, the committed state stands and the player is told how
to recover (``/board``), instead of the action being half done.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.discord.context import GAME_ID, NO_GAME, STALE, bot_of, current_game, game_here, ids
from bot.discord.instrument import count_move
from bot.discord.persistent import ConfirmButton, PersistentButton, check_place, refuse_origin
from bot.discord.play.posting import (
    MOVE_DONE,
    RESIGN_DONE,
    START_DONE,
    TAKEBACK_DONE,
    announce_start,
    not_posted,
    post_turn,
)
from bot.discord.play.threads import (
    THREAD_NOTE,
    delete_unused_thread,
    open_game_thread,
    thread_possible,
    threads_refused,
)
from bot.discord.play.turns import challenge_embed, mention
from bot.discord.play.venue import reachable
from bot.discord.play.web_links import display_name
from bot.discord.replies import defer_public, recorded, send_ephemeral
from bot.discord.speech import of_guild, private, public
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import (
    Challenge,
    NoGameHere,
    NoTakeback,
    NotAPlayer,
    OutOfTime,
    StaleAction,
)

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction["CrosspathBot"]


# ----- challenges ---------------------------------------------------------------------------
async def thread_name(
    challenge: Challenge, bot: CrosspathBot, accepter_id: int, guild: discord.Guild | None
) -> str:
    """ "Minefield: Alice vs Bob" (Discord caps thread names at 100 characters)."""
    names = await bot.fetch_names((challenge.challenger_id, accepter_id), guild)
    a, b = names[challenge.challenger_id], names[accepter_id]
    tr = of_guild(guild, bot)
    return tr.gettext("{game}: {first} vs {second}", game=challenge.title, first=a, second=b)[:100]


def acceptable(interaction: Interaction, challenge: Challenge) -> bool:
    """The accept is plausible (else the service refuses with the exact reason, and no
    thread is made for it)."""
    user_id = interaction.user.id
    return (
        challenge.status == "open"
        and user_id != challenge.challenger_id
        and challenge.opponent_id in (None, user_id)
    )


async def _thread_plan(interaction: Interaction, challenge: Challenge) -> tuple[bool, bool]:
    """(make a thread, the server wants threads but the bot may not make them here)."""
    if not acceptable(interaction, challenge):
        return False, False
    settings = await bot_of(interaction).service.moderation.get_settings(challenge.guild_id)
    return (
        thread_possible(interaction, settings.use_threads),
        threads_refused(interaction, settings.use_threads),
    )


async def accept_challenge(interaction: Interaction, challenge: Challenge) -> None:
    """Accept ``challenge`` (as read for the press): a thread first if the server wants one,
    with a note for the admins when it wants one the bot may not make."""
    bot = bot_of(interaction)
    service = bot.service
    thread = None
    make, refused = await _thread_plan(interaction, challenge)
    if make:
        await interaction.response.defer()  # creating a thread is a slow round trip
        name = await thread_name(challenge, bot, interaction.user.id, interaction.guild)
        thread = await open_game_thread(interaction, name, interaction.message)
    try:
        started = await service.accept_challenge(
            challenge.id,
            interaction.user.id,
            thread.id if thread else None,
            name=display_name(interaction.user),
        )
    except Exception:
        await delete_unused_thread(thread)
        raise
    recorded(interaction, START_DONE)
    note = public(interaction).gettext(THREAD_NOTE) if refused else ""
    await announce_start(bot, interaction, started, mention(interaction.user.id), note=note)


async def close_challenge(interaction: Interaction, challenge_id: int, action: str) -> None:
    service = bot_of(interaction).service
    user_id = interaction.user.id
    tr = public(interaction)
    if action == "decline":
        challenge = await service.challenges.decline_challenge(challenge_id, user_id)
        note = tr.gettext("Declined by {who}.", who=mention(user_id))
    else:
        challenge = await service.cancel_challenge(challenge_id, user_id)
        note = tr.gettext("Cancelled by {who}.", who=mention(user_id))
    await update_message(interaction, embed=challenge_embed(challenge, note, tr), view=None)


# ----- play ----------------------------------------------------------------------------------
async def play(interaction: Interaction, move: str) -> None:
    """``/move`` and ``/swap``: commit, then post the board as a new channel message.

    The interaction is acknowledged (privately) before anything else: after a restart the
    service may first have to rebuild the game's position, and Discord allows 3 seconds for
    the first response.  Refusals then arrive as private follow-ups.  From the commit on the
    move stands whatever Discord does, so failures only change what we say.

    In a DM or group DM the bot cannot post, so the board is this command's own answer:
    acknowledged publicly ("thinking…", withdrawn if the move is refused), and no private
    confirmation follows (the board says what was played).
    """
    bot = bot_of(interaction)
    _, channel_id = ids(interaction)
    bot.remember(interaction.user)
    in_dms = interaction.guild_id is None
    acknowledged = await acknowledge(interaction, public=in_dms)
    try:
        result = await bot.service.play_move(channel_id, interaction.user.id, move)
    except NoGameHere:
        await game_here(interaction)  # raises the refusal with a pointer to the player's games
        raise
    except OutOfTime as exc:
        await post_turn(bot, exc.ended.game)  # the loss on time is recorded: announce it
        raise
    recorded(interaction, MOVE_DONE)
    interaction.extras[GAME_ID] = result.game.id
    count_move(bot, result.game.game)
    posted = await post_turn(bot, result.game, moved=result, via=interaction)
    bot.computer.take_turn(result.game)  # a game against the computer: its reply, off this task
    if not acknowledged or (posted.ok and not reachable(result.game)):
        return
    tr = private(interaction)
    if not posted.ok:
        text = not_posted(MOVE_DONE, posted, tr)
    elif move == "swap":
        text = tr.gettext("Swapped: you now play the first colour.")
    else:
        moves = tr.listing([e.move for e in result.events]) or move
        text = tr.gettext("Played {moves}.", moves=moves)
    try:
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not confirm a move privately", exc_info=True)


async def update_message(interaction: Interaction, **changes: Any) -> bool:
    """Edit the message a button sits on, after a commit: a refusal by Discord is logged, not
    raised, so the committed action is still announced."""
    try:
        await interaction.response.edit_message(**changes)
    except discord.HTTPException:
        log.warning("could not update the button's message", exc_info=True)
        return False
    return True


async def acknowledge(interaction: Interaction, *, public: bool = False) -> bool:
    """Defer privately (``public``: with a public "thinking…" that a refusal withdraws);
    False if Discord no longer accepts a response (the work goes on)."""
    try:
        if public:
            await defer_public(interaction)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException:
        log.warning("could not defer an interaction; carrying on without it", exc_info=True)
        return False
    return True


async def ask_resign(interaction: Interaction) -> None:
    info = await game_here(interaction)
    tr = private(interaction)
    if info.colour_of(interaction.user.id) is None:
        raise NotAPlayer(tr.gettext("Only the two players of this game can resign it."))
    await interaction.response.send_message(
        tr.gettext(
            "Resign game #{id} ({game})? This cannot be undone.", id=info.id, game=info.title
        ),
        view=ResignButton.pair(info.id, info.version, tr),
        ephemeral=True,
    )


async def confirm_resign(interaction: Interaction, game_id: int, version: int) -> None:
    bot = bot_of(interaction)
    info = await current_game(interaction, game_id)
    tr = private(interaction)
    if info.version != version:
        raise StaleAction(
            tr.gettext(
                "The game has moved on since you asked to resign. "
                "Use /resign again if you still want to."
            )
        )
    ended = await bot.service.resign(
        info.channel_id, interaction.user.id, expected_version=version, game_id=info.id
    )
    recorded(interaction, RESIGN_DONE)
    await update_message(interaction, content=tr.gettext("You resigned."), view=None)
    posted = await post_turn(bot, ended.game, via=interaction)
    if not posted.ok:
        await send_ephemeral(interaction, not_posted(RESIGN_DONE, posted, tr))


async def request_takeback(interaction: Interaction) -> None:
    bot = bot_of(interaction)
    info = await game_here(interaction)
    bot.computer.refuse_takeback(info, interaction.user.id, private(interaction))
    request = await bot.service.play.request_takeback(info.channel_id, interaction.user.id)
    opponent = info.opponent_of(interaction.user.id)
    tr = public(interaction)  # the opponent answers it in the channel
    await interaction.response.send_message(
        tr.gettext(
            "{opponent}, {player} asks to take back their last turn.",
            opponent=mention(opponent),
            player=mention(interaction.user.id),
        ),
        view=TakebackButton.pair(info.id, request.version, tr),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
    )


async def answer_takeback(
    interaction: Interaction, game_id: int, version: int, accept: bool
) -> None:
    bot = bot_of(interaction)
    info = await current_game(interaction, game_id)
    if info.takeback is None or info.takeback.version != version:
        raise NoTakeback(
            private(interaction).gettext("That takeback request was already answered or withdrawn.")
        )
    answer = await bot.service.play.answer_takeback(
        info.channel_id, interaction.user.id, accept, game_id=info.id
    )
    tr = public(interaction)  # the request's message, which the channel reads
    who = mention(interaction.user.id)
    recorded(interaction, TAKEBACK_DONE if answer.accepted else N_("You refused the takeback"))
    await update_message(
        interaction,
        content=tr.gettext("Takeback allowed by {who}.", who=who)
        if answer.accepted
        else tr.gettext("Takeback refused by {who}.", who=who),
        view=None,
    )
    if answer.accepted:
        headline = tr.gettext("The last turn was taken back.")
        posted = await post_turn(bot, answer.game, headline, via=interaction)
        if not posted.ok:
            await send_ephemeral(
                interaction, not_posted(TAKEBACK_DONE, posted, private(interaction))
            )


# ----- the persistent buttons of these flows ----------------------------------------------------
# Their custom ids carry what they act on, so they survive restarts (see ``persistent``).  What
# a click may do is decided by the service from the current state: a button for a finished game
# or an older position is answered privately and changes nothing.


class ChallengeButton(
    PersistentButton, template=r"cp:chal:(?P<action>accept|decline|cancel):(?P<id>[0-9]+)"
):
    """Accept (challenged player, or anyone if open), Decline (challenged), Cancel (challenger).

    Acts only in the challenge's own server and channel: challenge ids are sequential, so the
    id alone would let a doctored press reach another server's challenge.
    """

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": (N_("Accept"), discord.ButtonStyle.success),
        "decline": (N_("Decline"), discord.ButtonStyle.danger),
        "cancel": (N_("Cancel"), discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, challenge_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        label, style = self.STYLES[action]
        super().__init__(f"cp:chal:{action}:{challenge_id}", tr.gettext(label), style)
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ChallengeButton:
        return cls(match["action"], int(match["id"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        bot_of(interaction).remember(interaction.user)
        challenge = await bot_of(interaction).service.challenges.get_challenge(self.challenge_id)
        check_place(interaction, challenge.guild_id, challenge.channel_id)
        if names_another_challenge(interaction.message, challenge):
            raise refuse_origin(interaction, ANOTHER_CHALLENGE)
        if self.action == "accept":
            await accept_challenge(interaction, challenge)
        else:
            await close_challenge(interaction, challenge.id, self.action)


ANOTHER_CHALLENGE = N_(
    "That button belongs to another challenge's message, so nothing was changed."
)
_CHALLENGE_NUMBER = re.compile(r"challenge #([0-9]+)$")


def names_another_challenge(message: discord.Message | None, challenge: Challenge) -> bool:
    """True when ``message`` is not the one ``challenge`` was posted in.

    A challenge stores its message's id once posted; one posted before that existed is
    recognised by its embed title, which ends with ``challenge #N`` (see
    ``turns.challenge_embed``; such messages were posted in English), and a message without
    that title (an older version's, or a translated one) is not refused for it.
    """
    if challenge.message_id is not None:
        return message is None or message.id != challenge.message_id
    for embed in message.embeds if message is not None else ():
        found = _CHALLENGE_NUMBER.search(embed.title or "")
        if found is not None:
            return int(found[1]) != challenge.id
    return False


def challenge_view(
    challenge_id: int, is_open: bool, tr: Tongue = ENGLISH_TONGUE
) -> discord.ui.View:
    """The challenge's buttons, labelled in the channel's language ``tr``."""
    view = discord.ui.View(timeout=None)
    actions = ("accept", "cancel") if is_open else ("accept", "decline", "cancel")
    for action in actions:
        view.add_item(ChallengeButton(action, challenge_id, tr))
    return view


class ResignButton(ConfirmButton, prefix="resign"):
    """The confirmation shown (privately) after ``/resign``."""

    LABELS: ClassVar[dict[bool, tuple[str, discord.ButtonStyle]]] = {
        True: (N_("Yes, resign"), discord.ButtonStyle.danger),
        False: (N_("No, keep playing"), discord.ButtonStyle.secondary),
    }

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        if self.yes:
            await confirm_resign(interaction, self.game_id, self.version)
        else:
            text = private(interaction).gettext("Not resigning. Play on!")
            await interaction.response.edit_message(content=text, view=None)


class TakebackButton(ConfirmButton, prefix="takeback"):
    """The opponent's answer to a takeback request."""

    LABELS: ClassVar[dict[bool, tuple[str, discord.ButtonStyle]]] = {
        True: (N_("Allow takeback"), discord.ButtonStyle.success),
        False: (N_("Refuse"), discord.ButtonStyle.danger),
    }

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        await answer_takeback(interaction, self.game_id, self.version, self.yes)


__all__ = [
    "NO_GAME",
    "STALE",
    "ChallengeButton",
    "ResignButton",
    "TakebackButton",
    "accept_challenge",
    "challenge_view",
    "close_challenge",
    "play",
]
