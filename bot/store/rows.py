"""Typed rows as stored: plain values with the database's column names.

The store speaks only in these (times are integer microseconds, JSON columns are decoded), so
it never imports the service; the service turns rows into its domain objects.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SettingsRow:
    guild_id: int
    allowed_channels: tuple[int, ...]
    use_threads: bool
    per_move: int | None
    reminders: tuple[int, ...]
    default_sizes: tuple[tuple[str, int], ...]
    challenge_expiry: int
    updated_at: int
    ratings_enabled: bool = True
    """Whether finished games change ratings in this server (migration 4)."""
    bank_start: int | None = None
    """The default clock when it is a bank: start, increment and maximum in seconds."""
    bank_increment: int = 0
    bank_cap: int | None = None
    vacation_days: int | None = None
    """Vacation days a year (None: the default)."""
    soft_time: int | None = None
    """Seconds before an untimed game's waiting player may claim it (None: the default)."""
    web_listing: bool = True
    """Whether this server's public games are served on the web (migration 11)."""
    language: str | None = None
    """The catalog language of the server's channel posts (None: Discord's server locale)."""


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int | None
    game: str
    size: int
    first: str
    per_move: int | None
    reminders: tuple[int, ...]
    status: str
    created_at: int
    expires_at: int
    resolved_at: int | None
    accepted_by: int | None
    game_id: int | None
    options: tuple[tuple[str, str], ...] = ()
    """Decoded from the JSON object column, sorted by key."""
    rated: bool = True
    """Whether the game it starts is rated (migration 4)."""
    message_id: int | None = None
    """The Discord message showing it, once posted (migration 6)."""
    bank_start: int | None = None
    bank_increment: int = 0
    bank_cap: int | None = None
    public: bool = False
    """Its channel could be read by everyone (migration 11): carried to the game."""
    challenger_name: str | None = None
    """The challenger's display name when the challenge was made (migration 11)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    size: int
    first_id: int
    second_id: int
    status: str
    version: int
    record: str
    to_move: str | None
    per_move: int | None
    reminders: tuple[int, ...]
    turn_started_at: int
    deadline_at: int | None
    remind_at: int | None
    reminders_sent: int
    takeback_by: int | None
    takeback_at: int | None
    takeback_version: int | None
    result_reason: str | None
    winner_id: int | None
    winner_colour: str | None
    loser_id: int | None
    loser_colour: str | None
    result_actor: int | None
    challenge_id: int | None
    created_at: int
    updated_at: int
    finished_at: int | None
    options: tuple[tuple[str, str], ...] = ()
    """Decoded from the JSON object column, sorted by key."""
    to_move_id: int | None = None
    """The user to move (None once the game is over): after Clear Path's swap this is not
    simply the owner of ``to_move`` at the start, so the service stores it with each turn and
    lists read it without rebuilding the game (migration 3)."""
    rated: bool = True
    """While active: the game was created rated.  Once over: the game changed ratings
    (False with ``unrated_reason`` when it did not, or after an admin reset them)."""
    unrated_reason: str | None = None
    rating_seq: int | None = None
    """The order in which finished games' ratings were applied (global, increasing); None
    for games that did not change ratings.  ``crosspath ratings rebuild`` replays in it."""
    tournament_id: int | None = None
    """The tournament the game is played in, if any (migration 7)."""
    bank_start: int | None = None
    """A bank game's clock (seconds): start, increment, maximum; None: untimed or per move."""
    bank_increment: int = 0
    bank_cap: int | None = None
    first_bank: int | None = None
    """Microseconds in the bank of ``first_id``/``second_id``: for the player waiting, what
    they have; for the player to move, what they had when their turn began (the deadline
    says what is left)."""
    second_bank: int | None = None
    paused_until: int | None = None
    """While a player is on vacation, the time the clock starts again: the deadline and the
    next reminder were moved past it (the clock counts nothing before it)."""
    public: bool = False
    """Whether the game may be shown on the web (migration 11)."""
    web_token: str | None = None
    """The unguessable key of its web page (None for games stored before migration 11)."""
    first_name: str | None = None
    """The display name of ``first_id`` when the game started (None: not known)."""
    second_name: str | None = None
    """The display name of ``second_id`` when the game started (None: not known)."""
    soft_noticed_at: int | None = None
    """When the sweep last told the waiting player they may claim soft time (migration 13);
    kept here so ``crosspath db copy`` carries it and a copied game is not announced twice."""
    first_hints: int = 0
    """How many hints ``first_id``/``second_id`` asked for (only games that allow hints)."""
    second_hints: int = 0


@dataclass(frozen=True, slots=True)
class NoticeRow:
    """How a player hears of their turn, in every server (``notice_prefs``, migration 9).

    ``mode`` is ``mention``, ``dm``, ``digest`` or ``off``; ``digest_hour`` is a UTC hour;
    ``next_digest_at`` is when the next digest is due (microseconds; None unless ``digest``);
    ``dm_closed``: Discord refused a DM because the player closed their DMs."""

    user_id: int
    mode: str
    digest_hour: int
    next_digest_at: int | None
    dm_closed: bool
    updated_at: int
    locale: str | None = None
    """The Discord locale the player's interactions last carried (None: never seen)."""


@dataclass(frozen=True, slots=True)
class MoveRow:
    game_id: int
    ply: int
    move: str
    user_id: int
    played_at: int


@dataclass(frozen=True, slots=True)
class EventRow:
    id: int
    game_id: int
    at: int
    kind: str
    user_id: int | None
    detail: str


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    guild_id: int
    actor_id: int
    action: str
    game_id: int | None
    target_id: int | None
    detail: str
    at: int


# ----- values the service hands to the store's typed writes --------------------------------


@dataclass(frozen=True, slots=True)
class ShardFilter:
    """The servers one bot process holds: those with ``(guild_id >> 22) % count`` in ``ids``
    (Discord's shard of a server).  Reads that take one return only rows of those servers,
    filtered in SQL, so each process's clock looks only at its own servers."""

    count: int
    ids: tuple[int, ...]

    def holds(self, guild_id: int) -> bool:
        """The same test in Python (for callers that already hold a row)."""
        return (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class NewChallenge:
    """A challenge to insert (the store gives it its id and status ``open``)."""

    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int | None
    game: str
    size: int
    first: str
    per_move: int | None
    reminders: tuple[int, ...]
    created_at: int
    expires_at: int
    options: tuple[tuple[str, str], ...] = ()
    rated: bool = True
    bank_start: int | None = None
    bank_increment: int = 0
    bank_cap: int | None = None
    public: bool = False
    challenger_name: str | None = None


@dataclass(frozen=True, slots=True)
class ClockRow:
    """A turn's clock: when the turn started, when it is lost, the next reminder, and how many
    reminders were sent for it (all times in microseconds)."""

    turn_started_at: int
    deadline_at: int | None
    remind_at: int | None
    reminders_sent: int = 0
    first_bank: int | None = None
    """Each player's bank (microseconds) as the turn starts; None for untimed and per move."""
    second_bank: int | None = None
    paused_until: int | None = None
    """The clock counts nothing before this (a player is on vacation until then)."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to insert, active at version 0 (the store gives it its id)."""

    guild_id: int
    channel_id: int
    game: str
    size: int
    first_id: int
    second_id: int
    record: str
    to_move: str | None
    per_move: int | None
    reminders: tuple[int, ...]
    clock: ClockRow
    challenge_id: int | None
    created_at: int
    options: tuple[tuple[str, str], ...] = ()
    to_move_id: int | None = None
    rated: bool = True
    tournament_id: int | None = None
    bank_start: int | None = None
    bank_increment: int = 0
    bank_cap: int | None = None
    public: bool = False
    web_token: str | None = None
    first_name: str | None = None
    second_name: str | None = None


@dataclass(frozen=True, slots=True)
class GameVersion:
    """A public game's web token and version: what a page watching it polls for."""

    web_token: str
    version: int


@dataclass(frozen=True, slots=True)
class ResultRow:
    """How a game ended, as stored: ``status`` is ``finished`` or ``aborted``; ``rated``,
    ``unrated_reason`` and ``rating_seq`` say whether (and in which order) it changed
    ratings."""

    status: str
    reason: str
    winner_id: int | None = None
    winner_colour: str | None = None
    loser_id: int | None = None
    loser_colour: str | None = None
    actor_id: int | None = None
    rated: bool = False
    unrated_reason: str | None = None
    rating_seq: int | None = None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating in one game of one server (``ratings`` table, migration 4).

    ``mu``/``sigma`` are the model's numbers as 8-byte floats; ``games`` is always
    ``wins + losses + draws``; ``last_seq`` is the ``rating_seq`` of the last game applied.
    """

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    wins: int
    losses: int
    draws: int
    games: int
    streak: int
    best_streak: int
    last_seq: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class RatingHistoryRow:
    """One player's rating before and after one rated game (``rating_history``)."""

    game_id: int
    user_id: int
    guild_id: int
    game: str
    seq: int
    opponent_id: int
    outcome: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: int


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A finished game that changed ratings, as a rebuild reads it (in ``rating_seq`` order)."""

    game_id: int
    guild_id: int
    game: str
    first_id: int
    second_id: int
    winner_id: int | None
    finished_at: int
    rating_seq: int
    options: tuple[tuple[str, str], ...] = ()
    """The game's options: a rebuild rates each game in its pool (a pie-rule game apart)."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament (or one league season) as stored (``tournaments``, migrations 7 and 13).

    ``round`` is the last round paired (0 before the start); ``rounds`` the number of rounds
    once known (None while registering, and for a knockout until its bracket is drawn);
    ``requested_rounds`` what the organiser asked for (a Swiss's rounds, or None);
    ``version`` grows with every change, so an update made against a stale read is refused;
    ``games_made`` counts the games created for it (their provisional channel ids).
    """

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    size: int
    format: str
    status: str
    round: int
    rounds: int | None
    requested_rounds: int | None
    match_games: int
    per_move: int | None
    reminders: tuple[int, ...]
    rated: bool
    min_players: int
    max_players: int | None
    division_size: int
    seed: int
    registration_deadline: int | None
    league_id: int | None
    season: int
    version: int
    message_id: int | None
    web_token: str
    games_made: int
    created_at: int
    updated_at: int
    started_at: int | None
    finished_at: int | None
    podium_claimed_at: int | None = None
    """When a process claimed the finished tournament's podium announcement (once)."""
    bank_start: int | None = None
    """Its games' clock when it is a bank: start, increment and maximum in seconds."""
    bank_increment: int = 0
    bank_cap: int | None = None
    public: bool = False
    """Its channel could be read by everyone when it was created: the web may show it."""


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A registered player: ``rating`` as at the start (it seeds and breaks the last tie),
    ``withdrawn_round`` the first round they are not paired in, ``division`` their league
    division (1 is the top), ``final_rank`` their place once the tournament finished, ``name``
    their display name when they joined (for the web pages; None if the adapter gave none)."""

    tournament_id: int
    user_id: int
    rating: float
    joined_at: int
    withdrawn_round: int | None = None
    division: int | None = None
    final_rank: int | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round created (once: its key is the tournament and the round number)."""

    tournament_id: int
    round: int
    created_at: int


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One game of a round, or a bye (``second_id`` None); ``game_id`` is the game played
    for it (None for a bye or a forfeit never played); ``outcome``/``reason`` its result
    once known (from the first seat's side: ``1-0``, ``0-1``, ``½-½``)."""

    tournament_id: int
    division: int
    round: int
    tbl: int
    game_no: int
    first_id: int
    second_id: int | None
    game_id: int | None = None
    outcome: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class CreatorRoleRow:
    """A role whose members may create tournaments in a server."""

    guild_id: int
    role_id: int


@dataclass(frozen=True, slots=True)
class VacationRow:
    """A player's vacation days (``vacations``): ``days_used`` in calendar ``year`` (UTC),
    and the vacation running from ``started_at`` to ``ends_at`` (both None: none running).
    ``days`` is how many days the running one was taken for."""

    user_id: int
    year: int
    days_used: int
    started_at: int | None
    ends_at: int | None
    days: int = 0


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """A stored analysis of one finished game at its final version (migration 15): a claim
    while ``status`` is 'running', the settings and per-ply JSON (``result``) once 'done'."""

    game_id: int
    game_version: int
    guild_id: int
    requester_id: int
    status: str
    playouts: int
    seed: int
    claimed_by: str | None
    claimed_until: int | None
    result: str | None
    created_at: int
    finished_at: int | None


ANALYSIS_FIELDS = tuple(AnalysisRow.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """One puzzle (``puzzles``): the position as a game, size and space-separated moves, the
    solution likewise; ``guild_id`` None for a puzzle any server may use (the starter set),
    else the only server that may (a game of a private channel); its openskill rating."""

    id: str
    game: str
    size: int
    moves: str
    solution: str
    guild_id: int | None
    source_game_id: int | None
    mu: float
    sigma: float
    tries: int
    solves: int
    created_at: int


@dataclass(frozen=True, slots=True)
class PuzzleAttemptRow:
    """One player's try at a puzzle (``puzzle_attempts``): the moves played so far in it
    (the player's answers and the bot's defences), ``status`` ``open``, ``solved``,
    ``failed``, ``gave_up`` or ``expired``; ``daily_day`` the day if it is a daily puzzle's."""

    id: int
    puzzle_id: str
    user_id: int
    guild_id: int | None
    played: str
    status: str
    started_at: int
    expires_at: int
    finished_at: int | None
    daily_day: str | None


@dataclass(frozen=True, slots=True)
class PuzzleRatingRow:
    """A player's puzzle rating and streak, one across servers (``puzzle_ratings``)."""

    user_id: int
    mu: float
    sigma: float
    solved: int
    failed: int
    streak: int
    best_streak: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class PuzzleChannelRow:
    """The channel a server's daily puzzle is posted in (``puzzle_channels``)."""

    guild_id: int
    channel_id: int


@dataclass(frozen=True, slots=True)
class PuzzleDailyRow:
    """A server's daily puzzle for one UTC day (``puzzle_daily``): the row is the claim, so
    the process that inserts it posts; ``solution_posted`` is 1 once the next day's solution
    went out."""

    guild_id: int
    day: str
    puzzle_id: str
    channel_id: int
    claimed_by: str
    message_id: int | None
    solution_posted: int


DATA_TABLES = (
    "guild_settings",
    "challenges",
    "games",
    "moves",
    "game_events",
    "audit_log",
    "ratings",
    "rating_history",
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_pairings",
    "tournament_creator_roles",
    "vacations",
    "notice_prefs",
    "analyses",
    "puzzles",
    "puzzle_attempts",
    "puzzle_ratings",
    "puzzle_channels",
    "puzzle_daily",
)
"""Every data table of either engine, parents before children (the order a copy inserts them
in); the engines' schemas create exactly these, plus their own migration bookkeeping."""


@dataclass(frozen=True, slots=True)
class StoreContents:
    """Every row of a store with its own ids, in key order: what ``crosspath db copy`` moves
    from one engine to another and then compares."""

    settings: tuple[SettingsRow, ...]
    challenges: tuple[ChallengeRow, ...]
    games: tuple[GameRow, ...]
    moves: tuple[MoveRow, ...]
    events: tuple[EventRow, ...]
    audit: tuple[AuditRow, ...]
    ratings: tuple[RatingRow, ...] = ()
    rating_history: tuple[RatingHistoryRow, ...] = ()
    tournaments: tuple[TournamentRow, ...] = ()
    tournament_entrants: tuple[EntrantRow, ...] = ()
    tournament_rounds: tuple[RoundRow, ...] = ()
    tournament_pairings: tuple[PairingRow, ...] = ()
    tournament_creator_roles: tuple[CreatorRoleRow, ...] = ()
    vacations: tuple[VacationRow, ...] = ()
    notices: tuple[NoticeRow, ...] = ()
    analyses: tuple[AnalysisRow, ...] = ()
    puzzles: tuple[PuzzleRow, ...] = ()
    puzzle_attempts: tuple[PuzzleAttemptRow, ...] = ()
    puzzle_ratings: tuple[PuzzleRatingRow, ...] = ()
    puzzle_channels: tuple[PuzzleChannelRow, ...] = ()
    puzzle_daily: tuple[PuzzleDailyRow, ...] = ()

    def counts(self) -> dict[str, int]:
        """Rows per table, for messages and for checking a copy."""
        return {name: len(getattr(self, name)) for name in self.__dataclass_fields__}
