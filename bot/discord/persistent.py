"""The base of every persistent button: one origin check and one error path, and the Yes/No pair.

A persistent button is a discord.py ``DynamicItem``: its custom id carries what it acts on, so
discord.py rebuilds it from the id alone, even in a new process.  Ids are plain text with
sequential numbers in them, and a client chooses the id it presses.  discord.py builds the item
only when the pressed message shows that id, so before any button acts, :class:`PersistentButton`
also checks that the message is one the bot posted (in a server, a DM or a group DM); buttons
bound to a place (a challenge's) check that place too (:func:`check_place`).  Every refusal
and failure of every button then takes the same path as commands'
(:func:`~bot.discord.replies.handle_error`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Self

import discord

from bot.discord.context import ids
from bot.discord.instrument import count_interaction
from bot.discord.replies import context_of, handle_error
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import StaleAction

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction[Any]

NOT_MINE = N_("That isn't one of my buttons, so nothing was changed.")
ELSEWHERE = N_("That button belongs to another channel, so nothing was changed.")
_NEVER = r"(?!)"
"""The template of the abstract bases: matches no custom id."""


def refuse_origin(interaction: Interaction, text: str) -> StaleAction:
    """Log a press from the wrong place (no traceback: it is a client's doing) and return the
    refusal to raise, in the presser's language (``text`` is a msgid)."""
    log.warning("refused a button pressed away from its own message", extra=context_of(interaction))
    return StaleAction(private(interaction).gettext(text))


def check_message(interaction: Interaction) -> None:
    """The press came from a message this bot posted (in a server, or as its answer in a DM
    or group DM: such a message is the application's own too)."""
    message = interaction.message
    me = interaction.client.user
    if message is None or me is None or message.author.id != me.id:
        raise refuse_origin(interaction, NOT_MINE)


def check_place(interaction: Interaction, guild_id: int, channel_id: int) -> None:
    """The press came from the server (or the DM, its own pool: ``context.ids``) and
    channel where the button's subject was posted."""
    if ids(interaction) != (guild_id, channel_id):
        raise refuse_origin(interaction, ELSEWHERE)


async def answer_checked(
    interaction: Interaction, act: Callable[[Interaction], Awaitable[None]]
) -> None:
    """What every persistent component does when used: check the message is the bot's, act,
    and hand any exception to the one error handler, so a press is always answered."""
    try:
        check_message(interaction)
        await act(interaction)
    except Exception as exc:
        await handle_error(interaction, exc)
    else:
        count_interaction(interaction, "ok")


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=_NEVER):
    """A button that survives restarts.  Subclasses give a ``template`` and :meth:`act`.

    :meth:`callback` is final: it checks the message, then acts, and hands any exception to
    the one error handler, so a press is always answered.
    """

    def __init_subclass__(cls, *, template: str | None = None, **kwargs: Any) -> None:
        # an intermediate base (no template of its own) matches nothing until a concrete
        # button names its ids
        super().__init_subclass__(template=template or _NEVER, **kwargs)

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    async def callback(self, interaction: Interaction) -> None:
        await answer_checked(interaction, self.act)

    async def act(self, interaction: Interaction) -> None:
        """What a press does, once the message is known to be the bot's."""
        raise NotImplementedError


CONFIRM_TEMPLATE = r"cp:{prefix}:(?P<action>yes|no):(?P<game>[0-9]+):(?P<version>[0-9]+)"


class ConfirmButton(PersistentButton):
    """One of a Yes/No pair about a game at one version (``cp:<prefix>:yes|no:<game>:<version>``).

    The version makes an answer given after the game moved on stale.  A subclass names its
    ``prefix`` and ``LABELS`` (msgids, marked with ``N_``) and acts on :attr:`yes`;
    :meth:`pair` makes the view, labelled in the language of whoever sees it.
    """

    PREFIX: ClassVar[str]
    LABELS: ClassVar[dict[bool, tuple[str, discord.ButtonStyle]]]

    def __init_subclass__(cls, *, prefix: str | None = None, **kwargs: Any) -> None:
        if prefix is not None:
            cls.PREFIX = prefix
            kwargs["template"] = CONFIRM_TEMPLATE.format(prefix=re.escape(prefix))
        super().__init_subclass__(**kwargs)

    def __init__(self, yes: bool, game_id: int, version: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        label, style = self.LABELS[yes]
        action = "yes" if yes else "no"
        custom_id = f"cp:{self.PREFIX}:{action}:{game_id}:{version}"
        super().__init__(custom_id, tr.gettext(label), style)
        self.yes = yes
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match["action"] == "yes", int(match["game"]), int(match["version"]))

    @classmethod
    def pair(cls, game_id: int, version: int, tr: Tongue = ENGLISH_TONGUE) -> discord.ui.View:
        """The Yes and No buttons for ``game_id`` at ``version``, labelled in ``tr``'s
        language (a press rebuilds them from the id alone, whatever the labels said)."""
        view = discord.ui.View(timeout=None)
        view.add_item(cls(True, game_id, version, tr))
        view.add_item(cls(False, game_id, version, tr))
        return view


__all__ = [
    "ELSEWHERE",
    "NOT_MINE",
    "ConfirmButton",
    "PersistentButton",
    "answer_checked",
    "check_message",
    "check_place",
    "refuse_origin",
]
