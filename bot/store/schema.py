"""Versioned schema migrations, applied through ``PRAGMA user_version``.

Each migration is a list of statements applied in ONE ``BEGIN IMMEDIATE`` transaction that also
bumps ``user_version``, so a crash mid-migration leaves the previous version intact and two
processes starting together cannot both apply it.  Append new migrations; never edit old ones.

Times are integer microseconds since the Unix epoch (UTC): exact, compact and ordered.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the initial schema
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            allowed_channels TEXT NOT NULL DEFAULT '[]',
            use_threads INTEGER NOT NULL DEFAULT 0,
            per_move INTEGER,
            reminders TEXT NOT NULL DEFAULT '[]',
            default_sizes TEXT NOT NULL DEFAULT '{}',
            challenge_expiry INTEGER NOT NULL DEFAULT 86400,
            updated_at INTEGER NOT NULL
        )""",
        """CREATE TABLE challenges (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            challenger_id INTEGER NOT NULL,
            opponent_id INTEGER,
            game TEXT NOT NULL,
            size INTEGER NOT NULL,
            first TEXT NOT NULL CHECK (first IN ('me', 'them', 'random')),
            per_move INTEGER,
            reminders TEXT NOT NULL DEFAULT '[]',
            status TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            resolved_at INTEGER,
            accepted_by INTEGER,
            game_id INTEGER,
            CHECK (opponent_id IS NULL OR opponent_id <> challenger_id)
        )""",
        "CREATE INDEX challenges_open_by_expiry ON challenges (expires_at) WHERE status = 'open'",
        "CREATE INDEX challenges_by_guild ON challenges (guild_id, status, id)",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            size INTEGER NOT NULL,
            first_id INTEGER NOT NULL,
            second_id INTEGER NOT NULL,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'finished', 'aborted')),
            version INTEGER NOT NULL DEFAULT 0,
            record TEXT NOT NULL,
            to_move TEXT,
            per_move INTEGER,
            reminders TEXT NOT NULL DEFAULT '[]',
            turn_started_at INTEGER NOT NULL,
            deadline_at INTEGER,
            remind_at INTEGER,
            reminders_sent INTEGER NOT NULL DEFAULT 0,
            takeback_by INTEGER,
            takeback_at INTEGER,
            takeback_version INTEGER,
            result_reason TEXT,
            winner_id INTEGER,
            winner_colour TEXT,
            loser_id INTEGER,
            loser_colour TEXT,
            result_actor INTEGER,
            challenge_id INTEGER REFERENCES challenges (id),
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            finished_at INTEGER,
            CHECK (first_id <> second_id)
        )""",
        # The database itself refuses a second active game in a channel or thread.
        "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)"
        " WHERE status = 'active'",
        "CREATE INDEX games_by_deadline ON games (deadline_at) WHERE status = 'active'",
        "CREATE INDEX games_by_reminder ON games (remind_at) WHERE status = 'active'",
        "CREATE INDEX games_by_first ON games (guild_id, first_id, updated_at)",
        "CREATE INDEX games_by_second ON games (guild_id, second_id, updated_at)",
        "CREATE INDEX games_by_channel ON games (channel_id, id)",
        "CREATE INDEX games_by_guild_status ON games (guild_id, status, updated_at)",
        # The source of truth for a position: cached state in ``games`` is rebuilt from this.
        """CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            ply INTEGER NOT NULL,
            move TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            played_at INTEGER NOT NULL,
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID""",
        """CREATE TABLE game_events (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            at INTEGER NOT NULL,
            kind TEXT NOT NULL,
            user_id INTEGER,
            detail TEXT NOT NULL DEFAULT ''
        )""",
        "CREATE INDEX game_events_by_game ON game_events (game_id, id)",
        """CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            actor_id INTEGER NOT NULL,
            action TEXT NOT NULL,
            game_id INTEGER,
            target_id INTEGER,
            detail TEXT NOT NULL DEFAULT '',
            at INTEGER NOT NULL
        )""",
        "CREATE INDEX audit_by_guild ON audit_log (guild_id, id)",
    ),
    # 2: per-game options (a JSON object of short strings, such as the computer's level), set
    # on the challenge and copied to the game it starts; older rows get an empty object
    (
        "ALTER TABLE challenges ADD COLUMN options TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}'",
    ),
    # 3: the user to move, stored with each turn so lists never rebuild a game; filled for
    # stored games from the moves (an odd number of Clear Path swaps exchanges the seats;
    # the first colour is red, or black in Minefield)
    (
        "ALTER TABLE games ADD COLUMN to_move_id INTEGER",
        """UPDATE games SET to_move_id = CASE
            WHEN status <> 'active' OR to_move IS NULL THEN NULL
            WHEN (to_move IN ('red', 'black')) = ((SELECT COUNT(*) FROM moves
                WHERE moves.game_id = games.id AND moves.move = 'swap') % 2 = 0)
            THEN first_id ELSE second_id END""",
        "CREATE INDEX games_by_to_move ON games (to_move_id, updated_at) WHERE status = 'active'",
    ),
    # 4: ratings (issue 13).  ``games.rated``: created rated while active, changed ratings once
    # over; ``rating_seq`` orders the games whose ratings were applied (a rebuild replays in
    # it).  ``mu``/``sigma`` are REAL (8-byte floats), so a rebuild gives equal values.
    (
        "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE games ADD COLUMN unrated_reason TEXT",
        "ALTER TABLE games ADD COLUMN rating_seq INTEGER",
        # Games finished before ratings existed changed none.
        "UPDATE games SET rated = 0, unrated_reason = 'before_ratings' WHERE status <> 'active'",
        "CREATE UNIQUE INDEX games_by_rating_seq ON games (rating_seq)"
        " WHERE rating_seq IS NOT NULL",
        "ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE guild_settings ADD COLUMN ratings_enabled INTEGER NOT NULL DEFAULT 1",
        """CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            wins INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            games INTEGER NOT NULL DEFAULT 0,
            streak INTEGER NOT NULL DEFAULT 0,
            best_streak INTEGER NOT NULL DEFAULT 0,
            last_seq INTEGER NOT NULL DEFAULT 0,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (guild_id, game, user_id),
            CHECK (games = wins + losses + draws)
        ) WITHOUT ROWID""",
        # The leaderboard's order (and a rank is a count over it).
        "CREATE INDEX ratings_leaderboard ON ratings (guild_id, game, mu DESC, games DESC,"
        " user_id)",
        "CREATE INDEX ratings_by_user ON ratings (guild_id, user_id)",
        """CREATE TABLE rating_history (
            game_id INTEGER NOT NULL REFERENCES games (id),
            user_id INTEGER NOT NULL,
            guild_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            seq INTEGER NOT NULL,
            opponent_id INTEGER NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
            mu_before REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            at INTEGER NOT NULL,
            PRIMARY KEY (game_id, user_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, game, seq)",
    ),
    # 5: turn claims. The process thinking for the computer claims its turn, so two shard
    # processes never both think for it; the claim holds for one version until a time (see
    # ``Tx.claim_turn``).  Self-contained: renumber freely when merging other migrations.
    (
        "ALTER TABLE games ADD COLUMN claimed_by TEXT",
        "ALTER TABLE games ADD COLUMN claimed_version INTEGER",
        "ALTER TABLE games ADD COLUMN claimed_until INTEGER",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
