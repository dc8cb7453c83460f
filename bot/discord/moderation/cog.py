"""``/admin``: server settings and moderation, for members with Manage Server.

``default_member_permissions`` hides the group from others in the client, but server owners
can override that, so every subcommand is also checked at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.discord.choices import edited_ids, playable_games, rating_pools
from bot.discord.context import game_here, ids
from bot.discord.play.game_lists import send_first_page
from bot.discord.play.posting import ENDED_DONE, not_posted, post_turn
from bot.discord.play.turns import mention
from bot.discord.ratings.rating_reset import confirm_view, question
from bot.discord.replies import log_failure, recorded, send_ephemeral
from bot.discord.speech import private
from bot.discord.transformers import TimeOption
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import AuditEntry, GameEnded, GuildSettings

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]
MANAGERS_ONLY = discord.Permissions(manage_guild=True)
MANAGERS_CHECK = app_commands.checks.has_permissions(manage_guild=True)
"""On every subcommand: server owners can override ``default_permissions`` in the client."""
_CHANNEL_EDITS: dict[str, Literal["add", "remove", "clear"]] = {
    "allow": "add",
    "disallow": "remove",
    "anywhere": "clear",
}
"""What each choice of ``/admin settings channel`` does to the allowed channels."""
SERVER_LOCALE = "discord"
"""The ``/admin settings language`` choice that follows Discord's server locale."""
SERVER_LOCALE_NAME = N_("Discord's server language")
LANGUAGE_NAMES = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
    "ru": "Русский",
    "ja": "日本語",
    "ko": "한국어",
    "zh_Hans": "简体中文",
}
"""Each shipped language by its own name, the same in every locale (a player looks for the
name of their language as they write it)."""
LANGUAGE_CHOICES = [
    app_commands.Choice(name=locale_str(SERVER_LOCALE_NAME), value=SERVER_LOCALE),
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
]
LANGUAGE_REFRESH_MINUTES = 5
"""How often each process re-reads the servers' languages, so a change made through another
process reaches this one's posts within that time."""


def language_name(language: str | None, tr: Tongue) -> str:
    if language is None:
        return tr.gettext(SERVER_LOCALE_NAME)
    return LANGUAGE_NAMES.get(language, language)


def settings_text(settings: GuildSettings, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The server's settings for its managers, in ``tr``'s language (the default clock is
    described in the service's English)."""
    channels = ", ".join(f"<#{c}>" for c in settings.allowed_channels) or tr.gettext("any channel")
    sizes = ", ".join(f"{g} {s}×{s}" for g, s in settings.default_sizes) or tr.gettext(
        "each game's default"
    )
    yes, no = tr.gettext("yes"), tr.gettext("no")
    lines = [
        tr.gettext("**Channels for games:** {value}", value=channels),
        tr.gettext("**Games in threads:** {value}", value=yes if settings.use_threads else no),
        tr.gettext(
            "**Default clock:** {value}", value=tr.say(settings.default_time_control.wording())
        ),
        tr.gettext("**Default sizes:** {value}", value=sizes),
        tr.gettext(
            "**Challenges expire after:** {hours} h", hours=settings.challenge_expiry // 3600
        ),
        tr.gettext(
            "**Ratings:** {value}",
            value=tr.gettext("on") if settings.ratings_enabled else tr.gettext("off"),
        ),
        tr.gettext("**Vacation days a year:** {days}", days=settings.vacation_days),
        tr.ngettext(
            "**Soft time (untimed games):** {n} day",
            "**Soft time (untimed games):** {n} days",
            settings.soft_time // 86400,
        ),
        tr.gettext(
            "**Public games on the web:** {value}",
            value=tr.gettext("listed") if settings.web_listing else tr.gettext("hidden"),
        ),
        tr.gettext(
            "**Language of game posts:** {value}", value=language_name(settings.language, tr)
        ),
    ]
    return "\n".join(lines)


def saved_text(settings: GuildSettings, tr: Tongue) -> str:
    return tr.gettext("Saved.") + "\n" + settings_text(settings, tr)


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="admin",
        description=locale_str("Server managers: settings and moderation"),
        default_permissions=MANAGERS_ONLY,
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )
    settings = app_commands.Group(
        name="settings", description=locale_str("View or change settings"), parent=admin
    )
    ratings = app_commands.Group(
        name="ratings", description=locale_str("Manage ratings"), parent=admin
    )

    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.refresh_languages.change_interval(minutes=LANGUAGE_REFRESH_MINUTES)

    async def cog_load(self) -> None:
        if self.bot.run_clock:
            self.refresh_languages.start()

    async def cog_unload(self) -> None:
        self.refresh_languages.cancel()

    @tasks.loop(minutes=LANGUAGE_REFRESH_MINUTES)
    async def refresh_languages(self) -> None:
        try:
            await self.bot.load_languages()
        except Exception as exc:  # an outage: the languages read before stay in use
            log_failure("could not re-read the servers' languages", exc)

    @refresh_languages.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    # ----- ratings -----------------------------------------------------------------------
    @MANAGERS_CHECK
    @ratings.command(
        name="reset", description=locale_str("Clear this server's ratings in one game")
    )
    @app_commands.describe(game=locale_str("whose ratings to clear (asks you to confirm)"))
    @app_commands.choices(game=rating_pools())
    async def ratings_reset(self, interaction: Interaction, game: app_commands.Choice[str]) -> None:
        await interaction.response.send_message(
            question(game.value, private(interaction)),
            view=confirm_view(game.value, interaction.user.id, private(interaction)),
            ephemeral=True,
        )

    # ----- settings ----------------------------------------------------------------------
    @MANAGERS_CHECK
    @settings.command(name="view", description=locale_str("Show this server's Crosspath settings"))
    async def settings_view(self, interaction: Interaction) -> None:
        guild_id, _ = ids(interaction)
        current = await self.bot.service.moderation.get_settings(guild_id)
        await interaction.response.send_message(
            settings_text(current, private(interaction)), ephemeral=True
        )

    @MANAGERS_CHECK
    @settings.command(
        name="set",
        description=locale_str(
            "Change threads, default clock, challenge expiry, ratings, vacation days,"
            " soft time or web listing"
        ),
    )
    @app_commands.describe(
        threads=locale_str("start each game in its own thread"),
        time=locale_str(
            "default clock: a bank like 3d+1d max 5d, a time per move like 12h, or none"
        ),
        expiry_hours=locale_str("hours before an unanswered challenge expires"),
        ratings=locale_str("whether finished games change ratings in this server"),
        vacation_days=locale_str("vacation days a year each player may take (default 30)"),
        soft_time_days=locale_str(
            "days an untimed game waits before the other player may claim (14)"
        ),
        web=locale_str("whether games in channels everyone can read are shown on the web pages"),
    )
    async def settings_set(
        self,
        interaction: Interaction,
        threads: bool | None = None,
        time: TimeOption | None = None,
        expiry_hours: app_commands.Range[int, 1, 720] | None = None,
        ratings: bool | None = None,
        vacation_days: app_commands.Range[int, 0, 365] | None = None,
        soft_time_days: app_commands.Range[int, 1, 365] | None = None,
        web: bool | None = None,
    ) -> None:
        guild_id, _ = ids(interaction)
        updated = await self.bot.service.moderation.update_settings(
            guild_id,
            interaction.user.id,
            use_threads=threads,
            default_time_control=time,
            challenge_expiry=expiry_hours * 3600 if expiry_hours else None,
            ratings_enabled=ratings,
            vacation_days=vacation_days,
            soft_time=soft_time_days * 86400 if soft_time_days else None,
            web_listing=web,
        )
        await interaction.response.send_message(
            saved_text(updated, private(interaction)), ephemeral=True
        )

    @MANAGERS_CHECK
    @settings.command(
        name="language", description=locale_str("Choose the language of this server's game posts")
    )
    @app_commands.describe(
        language=locale_str("a language, or Discord's server language (the default)")
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings_language(
        self, interaction: Interaction, language: app_commands.Choice[str]
    ) -> None:
        guild_id, _ = ids(interaction)
        updated = await self.bot.service.moderation.update_settings(
            guild_id, interaction.user.id, language=language.value
        )
        self.bot.languages.set(guild_id, updated.language)  # this process's posts at once
        await interaction.response.send_message(
            saved_text(updated, private(interaction)), ephemeral=True
        )

    @MANAGERS_CHECK
    @settings.command(
        name="puzzle-channel",
        description=locale_str("Post a daily puzzle in a channel (leave empty to stop)"),
    )
    @app_commands.describe(channel=locale_str("the channel for the daily puzzle"))
    async def settings_puzzle_channel(
        self, interaction: Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        guild_id, _ = ids(interaction)
        await self.bot.service.puzzles.set_channel(guild_id, channel.id if channel else None)
        tr = private(interaction)
        text = (
            tr.gettext("The daily puzzle will be posted in {channel}.", channel=channel.mention)
            if channel
            else tr.gettext("No daily puzzle will be posted.")
        )
        await interaction.response.send_message(text, ephemeral=True)

    @MANAGERS_CHECK
    @settings.command(
        name="channel", description=locale_str("Allow or disallow games in a channel")
    )
    @app_commands.describe(
        action=locale_str("allow or disallow the channel, or allow games anywhere"),
        channel=locale_str("the channel"),
    )
    @app_commands.choices(
        action=[
            app_commands.Choice(name=locale_str("allow"), value="allow"),
            app_commands.Choice(name=locale_str("disallow"), value="disallow"),
            app_commands.Choice(name=locale_str("anywhere"), value="anywhere"),
        ]
    )
    async def settings_channel(
        self,
        interaction: Interaction,
        action: app_commands.Choice[str],
        channel: discord.TextChannel | None = None,
    ) -> None:
        guild_id, channel_id = ids(interaction)
        current = await self.bot.service.moderation.get_settings(guild_id)
        target = channel.id if channel else channel_id
        edit = _CHANNEL_EDITS[action.value]
        allowed = edited_ids(current.allowed_channels, edit, target)
        updated = await self.bot.service.moderation.update_settings(
            guild_id, interaction.user.id, allowed_channels=allowed
        )
        await interaction.response.send_message(
            saved_text(updated, private(interaction)), ephemeral=True
        )

    @MANAGERS_CHECK
    @settings.command(
        name="size", description=locale_str("Set a game's default board size (0 clears it)")
    )
    @app_commands.describe(
        game=locale_str("which game"),
        size=locale_str("default size; 0 goes back to the game's default"),
    )
    @app_commands.choices(game=playable_games())
    async def settings_size(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str],
        size: app_commands.Range[int, 0, 25],
    ) -> None:
        guild_id, _ = ids(interaction)
        updated = await self.bot.service.moderation.update_settings(
            guild_id, interaction.user.id, default_sizes={game.value: size or None}
        )
        await interaction.response.send_message(
            saved_text(updated, private(interaction)), ephemeral=True
        )

    # ----- moderation --------------------------------------------------------------------
    async def _announce(self, interaction: Interaction, ended: GameEnded, done: str) -> None:
        """``done``: the private confirmation, in the admin's language already."""
        recorded(interaction, ENDED_DONE)
        await interaction.response.send_message(done, ephemeral=True)
        posted = await post_turn(self.bot, ended.game)
        if not posted.ok:
            await send_ephemeral(interaction, not_posted(ENDED_DONE, posted, private(interaction)))

    @MANAGERS_CHECK
    @admin.command(
        name="abort", description=locale_str("End the game in this channel with no result")
    )
    @app_commands.describe(reason=locale_str("why (recorded in the audit log)"))
    async def abort(
        self, interaction: Interaction, reason: app_commands.Range[str, 0, 200] = ""
    ) -> None:
        guild_id, channel_id = ids(interaction)
        ended = await self.bot.service.moderation.admin_abort(
            guild_id, interaction.user.id, channel_id, reason
        )
        done = private(interaction).gettext("Game #{id} aborted.", id=ended.game.id)
        await self._announce(interaction, ended, done)

    @MANAGERS_CHECK
    @admin.command(
        name="award", description=locale_str("Award the game in this channel to a player")
    )
    @app_commands.describe(
        player=locale_str("the winner"), reason=locale_str("why (recorded in the audit log)")
    )
    async def award(
        self,
        interaction: Interaction,
        player: discord.Member,
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        guild_id, channel_id = ids(interaction)
        ended = await self.bot.service.moderation.admin_award(
            guild_id, interaction.user.id, channel_id, player.id, reason
        )
        done = private(interaction).gettext(
            "Game #{id} awarded to {who}.", id=ended.game.id, who=mention(player.id)
        )
        await self._announce(interaction, ended, done)

    @MANAGERS_CHECK
    @admin.command(
        name="forfeit", description=locale_str("Forfeit a player of the game in this channel")
    )
    @app_commands.describe(
        player=locale_str("the player who forfeits"),
        reason=locale_str("why (recorded in the audit log)"),
    )
    async def forfeit(
        self,
        interaction: Interaction,
        player: discord.Member,
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        guild_id, channel_id = ids(interaction)
        ended = await self.bot.service.moderation.admin_forfeit(
            guild_id, interaction.user.id, channel_id, player.id, reason
        )
        done = private(interaction).gettext(
            "{who} forfeited game #{id}.", who=mention(player.id), id=ended.game.id
        )
        await self._announce(interaction, ended, done)

    @MANAGERS_CHECK
    @admin.command(
        name="audit", description=locale_str("Recent moderator actions, with who did them")
    )
    async def audit(self, interaction: Interaction) -> None:
        guild_id, _ = ids(interaction)
        entries = await self.bot.service.moderation.audit_log(guild_id, limit=15)
        tr = private(interaction)
        text = "\n".join(audit_line(e) for e in entries) or tr.gettext("No moderator actions yet.")
        await interaction.response.send_message(
            text[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @MANAGERS_CHECK
    @admin.command(name="active", description=locale_str("List every active game in this server"))
    async def active(self, interaction: Interaction) -> None:
        await send_first_page(interaction, "active")


__all__ = ["AdminCog", "game_here"]


def audit_line(entry: AuditEntry) -> str:
    game = f" game #{entry.game_id}" if entry.game_id else ""
    target = f" {mention(entry.target_id)}" if entry.target_id else ""
    detail = f": {entry.detail}" if entry.detail else ""
    when = f"<t:{int(entry.at.timestamp())}:f>"
    return f"{when} {mention(entry.actor_id)} {entry.action}{game}{target}{detail}"
