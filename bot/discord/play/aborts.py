"""``/abort`` and the opponent's answer: alone early on, else an offer with two buttons.

The service decides which it is (see ``bot.service.play.aborts``): while either player has made
fewer than two turns the game ends at once; after that the opponent is asked, and their
buttons carry the game and the version the offer was made at, so an answer given after a move
is refused as stale.  The computer agrees to every offer made to it at once: it never needs a
game it is playing, and nobody else can answer for it.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import discord

from bot.discord.context import bot_of, current_game, game_here
from bot.discord.persistent import ConfirmButton
from bot.discord.play.posting import not_posted, post_turn
from bot.discord.play.turns import mention
from bot.discord.replies import recorded, send_ephemeral
from bot.discord.speech import private, public
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import AbortOffer, GameEnded, GameInfo, OutOfTime

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction[Any]

ABORT_DONE = N_("The game was aborted")
EARLY_HEADLINE = N_("Game #{id} was aborted by {who} before both players had made two turns.")
AGREED_HEADLINE = N_("Game #{id} was aborted by agreement.")
NO_PINGS = discord.AllowedMentions.none()


async def announce_abort(
    interaction: Interaction, ended: GameEnded | GameInfo, headline: str
) -> None:
    """Post the final board (no result, unrated) in the game's channel (``headline``: in the
    channel's language already)."""
    info = ended.game if isinstance(ended, GameEnded) else ended
    posted = await post_turn(bot_of(interaction), info, headline, via=interaction)
    if not posted.ok:
        await send_ephemeral(interaction, not_posted(ABORT_DONE, posted, private(interaction)))


async def abort(interaction: Interaction) -> None:
    """``/abort``: end the game now while that is allowed alone, else offer it."""
    bot = bot_of(interaction)
    info = await game_here(interaction)
    user_id = interaction.user.id
    bot.remember(interaction.user)
    try:
        outcome = await bot.service.aborts.abort(info.channel_id, user_id, game_id=info.id)
    except OutOfTime as exc:
        await post_turn(bot, exc.ended.game)  # the loss on time came first: announce it
        raise
    tr = public(interaction)  # every answer here is read in the channel
    if isinstance(outcome, GameEnded):
        recorded(interaction, ABORT_DONE)
        who = mention(user_id)
        await interaction.response.send_message(
            tr.gettext(
                "{who} aborted game #{id}: no result, and it is not rated.", who=who, id=info.id
            ),
            allowed_mentions=NO_PINGS,
        )
        headline = tr.gettext(EARLY_HEADLINE, id=info.id, who=who)
        await announce_abort(interaction, outcome, headline)
        return
    opponent = info.opponent_of(user_id)
    if bot.computer.is_computer(opponent):
        answer = await bot.service.aborts.answer_abort(
            info.channel_id, opponent, True, version=outcome.version, game_id=info.id
        )
        recorded(interaction, ABORT_DONE)
        await interaction.response.send_message(
            tr.gettext(
                "{who} offered to abort game #{id} and the computer agreed.",
                who=mention(user_id),
                id=info.id,
            ),
            allowed_mentions=NO_PINGS,
        )
        await announce_abort(interaction, answer.game, tr.gettext(AGREED_HEADLINE, id=info.id))
        return
    await interaction.response.send_message(
        offer_text(outcome, opponent, tr),
        view=AbortButton.pair(info.id, outcome.version, tr),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
    )


def offer_text(offer: AbortOffer, opponent: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    return tr.gettext(
        "{opponent}, {player} offers to abort game #{id}: it would end with no result and not "
        "be rated. The offer lapses with the next move.",
        opponent=mention(opponent),
        player=mention(offer.offered_by),
        id=offer.game.id,
    )


async def answer_abort(interaction: Interaction, game_id: int, version: int, accept: bool) -> None:
    bot = bot_of(interaction)
    info = await current_game(interaction, game_id)
    try:
        answer = await bot.service.aborts.answer_abort(
            info.channel_id, interaction.user.id, accept, version=version, game_id=info.id
        )
    except OutOfTime as exc:
        await post_turn(bot, exc.ended.game)
        raise
    who = mention(interaction.user.id)
    tr = public(interaction)  # the offer's message, which the channel reads
    if not answer.accepted:
        recorded(interaction, N_("You declined the abort"))
        text = tr.gettext("{who} declined to abort game #{id}. Play on!", who=who, id=game_id)
        await _update(interaction, text)
        return
    recorded(interaction, ABORT_DONE)
    await _update(interaction, tr.gettext("{who} agreed to abort game #{id}.", who=who, id=game_id))
    await announce_abort(interaction, answer.game, tr.gettext(AGREED_HEADLINE, id=game_id))


async def _update(interaction: Interaction, content: str) -> None:
    """Replace the offer with its answer (the buttons go); a refusal by Discord is logged,
    the committed answer stands."""
    try:
        await interaction.response.edit_message(
            content=content, view=None, allowed_mentions=NO_PINGS
        )
    except discord.HTTPException:
        log.warning("could not update an abort offer", exc_info=True)


class AbortButton(ConfirmButton, prefix="abort"):
    """The opponent's answer to an abort offer (``cp:abort:yes|no:<game>:<version>``)."""

    LABELS: ClassVar[dict[bool, tuple[str, discord.ButtonStyle]]] = {
        True: (N_("Agree to abort"), discord.ButtonStyle.danger),
        False: (N_("Play on"), discord.ButtonStyle.secondary),
    }

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        await answer_abort(interaction, self.game_id, self.version, self.yes)


__all__ = ["AbortButton", "abort", "answer_abort"]
