"""Answering interactions safely: ephemeral refusals, and an apology when something breaks.

Every path that can fail ends here, so a player never sees "This interaction failed": known
refusals become a specific ephemeral sentence; a database fault (down, full, damaged) is no
bug, so players are told the database is unavailable and the store's sentence is logged
without a traceback; anything else is logged with its context (never the token) and a
traceback, and answered with a short apology.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.context import GAME_ID
from bot.discord.installs import NotHere
from bot.discord.instrument import count_interaction
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import ServiceError, database_fault

log = logging.getLogger("crosspath.discord")

APOLOGY = N_(
    "Sorry, something went wrong on my side. It has been logged; please try again in a moment."
)
DATABASE_DOWN = N_(
    "Sorry, the bot's database is unavailable right now, so your move or action was not "
    "recorded. Please try again shortly."
)
RECORDED_THEN_DOWN = N_(
    "{done}, but the bot's database became unavailable right after, so I couldn't finish. "
    "Once it is back, /board shows the game."
)
MISSING_BOT_PERMISSIONS = N_(
    "I'm missing a permission in this channel ({perms}). "
    "Ask a server admin to let me send messages, attach files and use threads here."
)


RECORDED = "crosspath_recorded"
"""``interaction.extras`` key: what the service committed for this interaction (set by
:func:`recorded`), so a database fault afterwards is not reported as "not recorded"."""


def recorded(interaction: discord.Interaction[Any], done: str) -> None:
    """Note that ``done`` (e.g. "Your move counts", an English msgid: it is translated when
    shown) was committed for this interaction."""
    interaction.extras[RECORDED] = done


PUBLIC_DEFER = "crosspath_public_defer"
"""``interaction.extras`` key: deferred publicly, and the "thinking…" message still stands."""


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge at once with a public "thinking…" (for answers everyone should see).

    If the command is then refused, :func:`send_ephemeral` deletes that placeholder and
    answers privately, so a refusal is never shown to the channel.
    """
    await interaction.response.defer(thinking=True)
    interaction.extras[PUBLIC_DEFER] = True


async def send_public(interaction: discord.Interaction[Any], **message: Any) -> None:
    """The public answer after :func:`defer_public` (it replaces the "thinking…")."""
    interaction.extras.pop(PUBLIC_DEFER, None)
    await interaction.followup.send(**message)


async def send_private(interaction: discord.Interaction[Any], **message: Any) -> None:
    """The answer after :func:`defer_public` when only the caller may see it: the public
    "thinking…" is removed and the answer follows privately."""
    if interaction.extras.pop(PUBLIC_DEFER, False):
        await interaction.delete_original_response()
    await interaction.followup.send(ephemeral=True, **message)


async def send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """Reply privately whether or not the interaction was already answered or deferred."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        await send_private(interaction, content=text)
    except discord.HTTPException:
        log.warning("could not deliver a reply", extra=context_of(interaction), exc_info=True)


def context_of(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """What a log line needs to find the interaction again; never the token."""
    command = interaction.command.qualified_name if interaction.command else None
    data: dict[str, Any] = dict(interaction.data or {})
    game = interaction.extras.get(GAME_ID)
    if game is None:  # a command's game:N option names it before any handler looked it up
        named = getattr(interaction.namespace, "game", None)
        game = named if isinstance(named, int) and not isinstance(named, bool) else None
    return {
        "interaction_id": interaction.id,
        "command": command,
        "custom_id": data.get("custom_id"),
        "user_id": interaction.user.id if interaction.user else None,
        "guild_id": interaction.guild_id,
        "channel_id": interaction.channel_id,
        "game_id": game,
    }


def refusal_for(error: BaseException, tr: Tongue = ENGLISH_TONGUE) -> str | None:
    """The player-facing sentence for an expected refusal in ``tr``'s language, or None if it
    is a real bug.  The service's own sentences (``ServiceError``) carry their wording, which
    ``tr`` translates and fills (names, points and ids stay as given)."""
    if isinstance(error, app_commands.CommandInvokeError):
        return refusal_for(error.original, tr)
    if isinstance(error, app_commands.TransformerError):
        if isinstance(error.__cause__, ServiceError):
            return tr.refusal(error.__cause__)  # the service's sentence, naming what was typed
        return tr.gettext(
            "'{value}' is not a valid value for that option.", value=str(error.value)[:100]
        )
    if isinstance(error, (app_commands.CommandSignatureMismatch, app_commands.CommandNotFound)):
        return tr.gettext(
            "This command changed since it was registered in this server. "
            "Ask the bot's operator to run `crosspath sync`."
        )
    if isinstance(error, ServiceError):
        return tr.refusal(error)
    if isinstance(error, app_commands.MissingPermissions):
        return tr.gettext(
            "Only server managers (Manage Server permission) can use the admin commands."
        )
    if isinstance(error, NotHere):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr.gettext("Crosspath commands work only inside a server.")
    if isinstance(error, app_commands.BotMissingPermissions):
        # Discord's own permission names, as its settings show them in English
        names = (p.replace("_", " ").title() for p in error.missing_permissions)
        return tr.gettext(MISSING_BOT_PERMISSIONS, perms=", ".join(names))
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr.gettext(
            "Slow down a little: try again in {seconds} s.",
            seconds=tr.number(round(error.retry_after)),
        )
    if isinstance(error, app_commands.CheckFailure):
        return tr.gettext("You can't use this command here.")
    if isinstance(error, discord.Forbidden):
        return tr.gettext(MISSING_BOT_PERMISSIONS, perms=error.text or tr.gettext("missing access"))
    return None


def log_failure(what: str, error: BaseException, **context: Any) -> None:
    """Log a failure at ERROR: a database fault as the store's sentence (an operator's
    matter, no traceback), anything else with its traceback (a bug)."""
    fault = database_fault(error)
    if fault is not None:
        log.error("%s: the database is unavailable: %s", what, fault, extra=context)
    else:
        log.error(what, extra=context, exc_info=(type(error), error, error.__traceback__))


async def handle_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The single error path for commands, autocomplete and buttons; the answer is private,
    so it speaks the player's language."""
    tr = private(interaction)
    text = refusal_for(error, tr)
    if text is None:
        original = getattr(error, "original", error)
        log_failure("could not handle an interaction", original, **context_of(interaction))
        if database_fault(original) is None:
            count_interaction(interaction, "error")
            text = tr.gettext(APOLOGY)
        else:
            count_interaction(interaction, "database")
            text = (
                tr.gettext(RECORDED_THEN_DOWN, done=tr.gettext(interaction.extras[RECORDED]))
                if RECORDED in interaction.extras
                else tr.gettext(DATABASE_DOWN)
            )
    else:
        count_interaction(interaction, "refused")
    if interaction.type is discord.InteractionType.autocomplete:
        return  # autocomplete cannot show messages; an empty list is already the answer
    await send_ephemeral(interaction, text)
