"""``/hint``: the computer's suggested move, shown only to the player who asked (issue 48).

The service decides whether the game allows hints and counts them; the answer is private, so
it speaks the player's language.  The search takes seconds, so the answer is deferred first.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.context import bot_of, game_here
from bot.discord.speech import private
from bot.i18n import Tongue
from bot.service import Hint


def hint_text(hint: Hint, tr: Tongue) -> str:
    """The hint as the player reads it: the proven verdict, or the move and its win chance,
    then how many hints they used in this game."""
    if hint.proven == "win":
        advice = tr.gettext("Proven win: play {move} and you win with best play.", move=hint.move)
    elif hint.proven == "loss":
        advice = tr.gettext(
            "Proven loss: with best play you lose; the computer would try {move}.",
            move=hint.move,
        )
    else:
        advice = tr.gettext(
            "The computer suggests {move}: your win chance is about {chance}%.",
            move=hint.move,
            chance=tr.number(round(hint.win_chance * 100)),
        )
    used = tr.gettext("Hints you used in this game: {count}.", count=tr.number(hint.used))
    return f"{advice}\n{used}"


async def give_hint(interaction: discord.Interaction[Any]) -> None:
    """Answer ``/hint`` privately; a refusal goes through the shared error path."""
    info = await game_here(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    service = bot_of(interaction).service
    hint = await service.hints.hint(info.channel_id, interaction.user.id, game_id=info.id)
    await interaction.followup.send(hint_text(hint, private(interaction)), ephemeral=True)
