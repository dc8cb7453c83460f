"""Where each command may be used (issue 47): server installs and user installs, servers,
DMs and group DMs.

Since 2024 a user can install an app to their own account and use its commands anywhere
(``integration_types`` 1, ``contexts`` 1 and 2).  The player commands are offered there;
``/admin``, ``/tournament`` and ``/leaderboard`` stay in servers that installed Crosspath,
since they are about a server and its members.

In a DM or group DM the bot can only answer the interactions it is sent, never post on its
own.  Games are played there all the same (:data:`IN_DMS`): every answer carries what the
players need, and the rest goes by DM (see ``bot.discord.play.venue``).  In a server that
never added the bot, a command that needs the bot's own posts is refused with a sentence
that says where to play instead, before anything is written (:func:`refusal_outside`): a
server game is rated in the server's pool and run by its settings, which a server that did
not add Crosspath never agreed to.  :data:`ANYWHERE` names the commands that need no post of
the bot's own and so work in every context.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import N_, Tongue

T = TypeVar("T")

ANYWHERE = frozenset({"rules", "help", "notify", "vacation"})
"""Commands whose answers are the interaction's own (private or not): they work in a DM,
a group DM and a server that never added the bot, as in any server."""

IN_DMS = ANYWHERE | {
    "challenge",
    "move",
    "swap",
    "resign",
    "takeback",
    "abort",
    "board",
    "history",
    "replay",
    "games",
    "challenges",
    "claim",
    "profile",
    "hint",
    "puzzle",
    "Challenge to a game",
}
"""Commands that work in a DM or group DM: a game there is played through the interactions'
own answers, and a puzzle too (each answer is a button's or a form's interaction of its own;
public puzzles only there).  ``/analyse`` (its report arrives long after the interaction) stays
in servers, as do the daily puzzle and its channel setting (``/admin``)."""

NOT_HERE_YET = N_("/{command} works only in a server that added Crosspath: use it there.")
NOT_IN_THIS_SERVER = N_(
    "Crosspath is not installed in this server, so it cannot post the game here. Ask a"
    " server manager to add it, or play in a server that has it."
)


class NotHere(app_commands.CheckFailure):
    """A command used where it cannot run (see :func:`refusal_outside`); the message is the
    player's sentence, in their language already."""


def everywhere(command: T) -> T:
    """A player command: offered to server and user installs, in servers, DMs and group DMs."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def servers_only(command: T) -> T:
    """A command about a server (its settings, tournaments, leaderboard): only where the
    server installed Crosspath."""
    command = app_commands.guild_only()(command)
    return app_commands.allowed_installs(guilds=True, users=False)(command)


def guild_installed(interaction: discord.Interaction[Any]) -> bool:
    """Whether the server this interaction comes from installed Crosspath (so the bot is a
    member and can post); False in DMs and group DMs.  An interaction that names no installing
    owner at all (as before user installs) counts as the server's."""
    if interaction.guild_id is None:
        return False
    return interaction.is_guild_integration() or not interaction.is_user_integration()


def refusal_outside(interaction: discord.Interaction[Any], tr: Tongue) -> str | None:
    """Why this command cannot run here, or None when it can."""
    command = interaction.command
    if isinstance(command, app_commands.Command) and command.root_parent is not None:
        name = command.root_parent.name
    else:
        name = command.name if command is not None else ""
    if guild_installed(interaction) or name in ANYWHERE:
        return None
    if interaction.guild_id is not None:
        return tr.gettext(NOT_IN_THIS_SERVER)
    if name in IN_DMS:
        return None
    return tr.gettext(NOT_HERE_YET, command=name)
