"""Monte Carlo tree search: UCT with RAVE, an MCTS-Solver, and exact one-ply root tactics.

Why each part is here:

* **Random playouts** through the real engine (``legal_mask`` + ``play_index``) are the only
  evaluation, so the search is generic over every :class:`rules.Game` and can never play an
  illegal move.
* **RAVE/AMAF** shares what a point was worth anywhere later in a playout.  In connection
  games a point's value depends mostly on who owns it, so this sharpens the estimates after
  a few hundred playouts, which is all pure Python affords (``bench/ai_bench.py`` measures it).
* **The solver** backs up proven wins and losses, because these games end suddenly: a single
  won line proves the parent, and a node whose every move is lost is lost.  Each new node is
  checked for a win in one when it is expanded, so refutations by double threats are proven
  quickly instead of waiting for sampling to stumble on the winning reply.
* **Root tactics** take a win in one at once and never hand the opponent a win in one when a
  safe move exists; sampling alone can miss both.

Turn order is never assumed to alternate.  Each node records which *person* made its move:
the colour to move, flipped once a Clear Path ``swap`` has exchanged colours.  Chains (the
same player placing again) and skipped turns therefore need no special cases, and values
are always from the point of view of whoever chose the move.
"""

from __future__ import annotations

import gc
import math
import random
import time
from dataclasses import dataclass, replace

from rules import Game
from rules.geometry import bits_list

from .book import book_reply
from .connection import (
    BARRED_GAMES,
    CUTOFF_GAMES,
    EVAL_GAMES,
    PATH_PLAYOUT_GAMES,
    PRIOR_AFTER_VISITS,
    RUN_GAMES,
    SHADOW_GAMES,
    across_bits,
    decided_winner,
    distance_leader,
    line_point,
    move_priors,
    path_points,
    stone_masks,
)
from .moves import (
    Move,
    lazy_candidates,
    legal_among,
    legal_moves,
    local_point,
    move_name,
    play,
    point_verdict,
    prepare,
    random_point,
    tree_moves,
)
from .tactics import (
    candidate_moves,
    losing_in_two,
    losing_moves,
    winning_moves,
    wins_in_two,
)

DRAW = -1


@dataclass(frozen=True, slots=True)
class Budget:
    """How long to think: a number of playouts, a number of seconds, or both (whichever ends
    first).  A playout-only budget makes the search deterministic for a given seed."""

    playouts: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.playouts is None and self.seconds is None:
            raise ValueError("a budget needs a number of playouts, of seconds, or both")
        if self.playouts is not None and (
            isinstance(self.playouts, bool) or not isinstance(self.playouts, int)
        ):
            raise ValueError(f"playouts must be a whole number, not {self.playouts!r}")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {self.playouts}")
        if self.seconds is not None and not (
            isinstance(self.seconds, int | float) and 0 < self.seconds < math.inf
        ):
            raise ValueError(f"seconds must be a positive number, not {self.seconds!r}")


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Tuning knobs; the field defaults are :data:`BASIC_CONFIG` (level 1), and
    :data:`DEFAULT_CONFIG` adds what levels 3 to 5 use."""

    rave: bool = True
    exploration: float = 0.25
    rave_equivalence: float = 400.0
    block: bool = True
    threat_games: frozenset[str] = frozenset()
    """Games where the root looks two moves deep: it plays a move that wins in two
    (:func:`ai.tactics.wins_in_two`: a threat no answer stops) and, with ``block``, marks
    moves that lose in two (:func:`ai.tactics.loses_in_two`) as lost."""
    first_play_urgency: float = 1.0
    win_check: bool = True
    """Look for a win in one whenever a tree node is expanded (see ``Searcher._expand``)."""
    prior_weight: float = 1.0
    """Progressive bias: a new child's value gets ``prior_weight * prior / (visits + 1)``, the
    prior coming from connection knowledge (:func:`ai.connection.move_priors`)."""
    local_playouts: float = 0.5
    """Chance that a playout move is drawn from the legal points next to the previous move
    instead of the whole board (answers to a threat are usually local)."""
    line_playouts: float = 0.0
    """Crosscut: chance that a playout move goes to the interior line closest to completion
    (:func:`ai.connection.line_point`) instead of a uniformly random point."""
    legality_aware: bool = False
    """Priors from paths that avoid the points each side may not place on
    (:func:`ai.connection.barred_points`: Minefield's glyphs) instead of the plain distance.
    It only matters where Minefield has priors (``minefield-prior``, issue 14 fifth round)."""
    knowledge_games: frozenset[str] | None = frozenset({"clearpath"})
    """The games where ``prior_weight`` applies (None: every game); the A/B matches in
    docs/ai.md decide where the knowledge pays."""
    local_games: frozenset[str] | None = frozenset({"clearpath"})
    """The games where ``local_playouts`` applies (None: every game)."""
    perimeter_playouts: float = 0.0
    """Crosscut: chance that a playout move is a perimeter placement when one is legal (a
    perimeter placement is legal only if it flips, and uniform playouts almost never pick
    one, so without this they overlook blocks flipped back from the edge)."""
    cutoff: int = 0
    """In games where a cut-off player can never win (:data:`ai.connection.CUTOFF_GAMES`),
    end a playout as soon as a side is cut off, checking every ``cutoff`` moves (0: never)."""
    distance_eval: int = 0
    """Stop a playout after this many moves (0: never) and give it to the side closer to
    connecting (:func:`ai.connection.distance_leader`) instead of playing it out: a random
    fill of a Minefield board says little about who was ahead.  In ``playout_games`` that
    are :data:`ai.connection.EVAL_GAMES` (not Clear Path, whose chains and swap make the
    side to move a poor tie-break)."""
    path_playouts: float = 0.0
    """Chance that a playout move is a random legal point on either side's shortest
    legality-aware paths (:func:`ai.connection.path_points`), in ``playout_games`` that are
    :data:`ai.connection.PATH_PLAYOUT_GAMES` (Minefield, Clearcut and Naked Diagonal, where it was
    tried)."""
    capture_playouts: float = 0.0
    """Clearcut: chance that a playout move is a legal crosscut (a capture of two enemy
    checkers, ``Clearcut.capture_mask``), uniform among them, if there is one.  Uniform
    playouts overlook most captures; the A/B match in docs/ai.md (sixth round) found that
    taking them greedily is worse, so no level uses it."""
    playout_games: frozenset[str] = frozenset()
    """The games where ``distance_eval`` and ``path_playouts`` apply."""
    barred_games: frozenset[str] = BARRED_GAMES
    """The games whose bars the distances of ``distance_eval`` and ``path_playouts`` route
    around (:func:`ai.connection.barred_points`): Minefield's; Naked Diagonal's bars beside
    enemy stones were tried in the sixteenth round (``nd-bars``)."""
    fast_paths: bool = True
    """Use the engine's search fast paths (Naked Diagonal's per-point legality and lazy skip
    rule) and try only possible winning points in the win check.  Off only to measure them."""
    drawn_playouts: bool = True
    """Naked Diagonal: the lazy skip check tries points in a random order and the playout
    plays the legal point it found (uniform, as before, at one verdict per move instead of
    two or more).  Off only to measure it (issue 14, eighth round)."""
    quick_turns: bool = True
    """Apply the skip rule lazily on the search's copy of the game and draw playout moves
    by rejection (the engine's ``use_quick_turns``: Naked Diagonal, and since issue 14's
    eleventh round Clearcut, Clear Path and Crosscut, where the mask a placement used to
    compute for the skip rule was a third to half of a search's time or more).  Play and
    draws are exactly as before.  Off only to measure it."""
    lazy_moves: bool = True
    """Naked Diagonal: a new tree node lists the points that form no naked diagonal and
    decides whether one is legal only when the search first selects it (``Searcher._select``)
    instead of deciding every point at expansion, which most nodes, visited once, never
    needed.  The tree still plays only points proven legal.  Off only to measure it (issue
    14, eleventh round)."""
    pause_gc: bool = True
    """Pause the cyclic garbage collector while the search runs (issue 14, fifteenth round).
    The tree holds no reference cycles and a search makes no cyclic garbage (a test checks
    both), so reference counting frees everything and the collections only walked the growing
    tree: 4–6 % of a 5,000-playout search's CPU in Clear Path, Clearcut, Minefield and Crosscut
    (``bench/search_gc.py``).
    The collector's previous state is restored afterwards, so a caller that paused it keeps it
    paused.  Off only to measure it."""
    book: bool = False
    """Play the opening book's move (:mod:`ai.book`) where it has one, without searching.
    Tried for level 5 in issue 14's fifteenth round and not kept: as Naked Diagonal's first
    player it lost more games to the distance player with the book than without it
    (docs/ai.md), so no level uses it; ``--config book`` in ``bench/ai_bench.py``."""
    shadow_playouts: float = 0.0
    """In :data:`ai.connection.SHADOW_GAMES`: chance that a playout move answers the
    opponent's last stone on a legal point next to it across the opponent's way
    (:func:`ai.connection.across_bits`), the shadow player's answer (:mod:`ai.reference`),
    before any other playout rule is tried (issue 14, nineteenth round).  No level uses it:
    against the shadow player itself it won no more games than the default in any game, and
    it lost to the default in Minefield and in Naked Diagonal at level 3's budget; in Clearcut
    it beat the default 52 of 80 times, which docs/ai.md leaves for a round that can measure
    Clearcut's ladder again."""
    shadow_games: frozenset[str] = SHADOW_GAMES
    """The games where ``shadow_playouts`` applies (only those of
    :data:`ai.connection.SHADOW_GAMES` can)."""
    survivor_amaf: frozenset[str] = frozenset()
    """Games where RAVE credits a person only with the points they still hold when the
    playout ends.  In Clearcut a crosscut removes two checkers, so a point placed and then
    captured within a playout would otherwise share the win of a game it did not help win
    (issue 14, ninth round: the sixth round's guess at why Clearcut gains so little from
    more playouts).  It did not pay: 71 of 140 games against the search without it at 1,000
    playouts, and at 5,000 against 1,000 it won 65 % as the search without it wins 63 %, so no
    level uses it (docs/ai.md)."""


BASIC_CONFIG = SearchConfig()
"""Levels 1 (with ``block`` off) and 2: one move deep at the root, no Crosscut knowledge and
plain Minefield playouts."""
CROSSCUT_CONFIG = SearchConfig(
    knowledge_games=frozenset({"clearpath", "crosscut"}), threat_games=frozenset({"crosscut"})
)
"""Levels 3 to 5 until issue 14's fifth round: in Crosscut also two moves deep at the root and
the engine-scored prior, where the A/B matches in docs/ai.md showed the gain (82 of 100
against the distance player at 1,000 playouts; 89 with the threat check, 87 with the prior,
90 with both)."""
MINEFIELD_PATHS_CONFIG = replace(
    CROSSCUT_CONFIG,
    distance_eval=6,
    path_playouts=0.75,
    playout_games=frozenset({"minefield"}),
)
"""Levels 3 to 5 from issue 14's fifth round to its sixteenth: :data:`CROSSCUT_CONFIG`, and in
Minefield playouts that mostly follow both sides' shortest legality-aware paths and stop after
six moves with the side closer to connecting as the winner (fifth round, at 1,000 playouts
against the search without them: 30 of 40 at 7×7, 31 of 40 at 9×9; in Clearcut they lost)."""
DEFAULT_CONFIG = replace(
    MINEFIELD_PATHS_CONFIG, playout_games=frozenset({"minefield", "nakeddiagonal"})
)
"""Levels 3 to 5 and ``search()``: :data:`MINEFIELD_PATHS_CONFIG` with the same path playouts
in Naked Diagonal (sixteenth round, against the search without them at 7×7: 22 of 40 at 300
playouts a move and 25 of 40 at 1.5 s a move; a playout move costs about as much, but a
playout stops after six of them instead of running to the end, so a move takes 0.58 times as
long at equal playouts; against the distance player at 300 playouts 53 of 60 won, 48 of 60
without them)."""
# Plain UCT needs more exploration than UCT+RAVE, whose AMAF term already spreads visits.
PLAIN_UCT = SearchConfig(rave=False, exploration=0.7)
NO_WIN_CHECK = SearchConfig(win_check=False)
CONFIGS: dict[str, SearchConfig] = {
    "default": DEFAULT_CONFIG,
    "book": replace(DEFAULT_CONFIG, book=True),
    "basic": BASIC_CONFIG,
    "plain-uct": PLAIN_UCT,
    "no-win-check": NO_WIN_CHECK,
    "no-fast-paths": SearchConfig(fast_paths=False),
    "no-knowledge": SearchConfig(prior_weight=0.0, local_playouts=0.0),
    "prior": SearchConfig(prior_weight=1.0, local_playouts=0.0, knowledge_games=None),
    "local": SearchConfig(prior_weight=0.0, local_playouts=0.5, local_games=None),
    "prior-local": SearchConfig(knowledge_games=None, local_games=None),
    "crosscut-prior": SearchConfig(knowledge_games=frozenset({"clearpath", "crosscut"})),
    # The second round's name for what became DEFAULT_CONFIG, and was "default" until the
    # fifth round added Minefield's path playouts; docs/ai.md's A/B tables use it.
    "crosscut-prior-threats": CROSSCUT_CONFIG,
    "minefield-knowledge": SearchConfig(
        knowledge_games=frozenset({"clearpath", "minefield"}),
        local_games=frozenset({"clearpath", "minefield"}),
    ),
    "minefield-prior": replace(
        CROSSCUT_CONFIG,
        knowledge_games=frozenset({"clearpath", "crosscut", "minefield"}),
        legality_aware=True,
    ),
    "rave-100": replace(CROSSCUT_CONFIG, rave_equivalence=100.0),
    # Tenth round: level 4's budget in Clearcut with less exploration or more RAVE, to see
    # whether 5,000 playouts pay more with other settings (docs/ai.md); neither was kept.
    "explore-0.1": replace(DEFAULT_CONFIG, exploration=0.1),
    "rave-1500": replace(DEFAULT_CONFIG, rave_equivalence=1500.0),
    "distance-eval": replace(CROSSCUT_CONFIG, distance_eval=6, playout_games=EVAL_GAMES),
    "path-playouts": replace(
        CROSSCUT_CONFIG, distance_eval=6, path_playouts=0.75, playout_games=EVAL_GAMES
    ),
    # Sixteenth round: "nd-paths" was the A/B name of what became DEFAULT_CONFIG (Minefield's
    # path playouts and six-move cut-off in Naked Diagonal too); "minefield-paths" is the
    # default before it, without them in Naked Diagonal.
    "nd-paths": DEFAULT_CONFIG,
    "minefield-paths": MINEFIELD_PATHS_CONFIG,
    "nd-bars": replace(DEFAULT_CONFIG, barred_games=frozenset({"minefield", "nakeddiagonal"})),
    "captures": replace(CROSSCUT_CONFIG, capture_playouts=0.75),
    "cutoff": SearchConfig(cutoff=4),
    "lines": SearchConfig(line_playouts=0.5),
    "perimeter": SearchConfig(perimeter_playouts=0.5),
    "threats": SearchConfig(threat_games=frozenset({"crosscut"})),
    "shadow-playouts": replace(DEFAULT_CONFIG, shadow_playouts=0.5),
    "survivors": replace(DEFAULT_CONFIG, survivor_amaf=frozenset({"clearcut"})),
    "clearcut-threats": replace(DEFAULT_CONFIG, threat_games=frozenset({"crosscut", "clearcut"})),
    "threats-all": SearchConfig(
        threat_games=frozenset({"clearpath", "minefield", "crosscut", "clearcut"})
    ),
}
"""Named configurations for A/B matches (``bench/ai_bench.py --opponent config``)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    move: str
    playouts: int
    seconds: float
    value: float
    """Estimated chance that the player to move wins after ``move``."""
    proven: int
    """1 if ``move`` is a proven win, -1 if every move is a proven loss, else 0."""
    reason: str

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0


class Node:
    """One move in the tree, with statistics from the point of view of its ``person``."""

    __slots__ = (
        "amaf_visits",
        "amaf_wins",
        "by_point",
        "children",
        "complete",
        "move",
        "mover",
        "needs_prior",
        "person",
        "point_mask",
        "prior",
        "proven",
        "terminal",
        "unchecked",
        "visits",
        "wins",
    )

    def __init__(self, move: Move, person: int) -> None:
        self.move = move
        self.person = person
        self.children: list[Node] | None = None
        self.by_point: dict[int, Node] = {}
        self.point_mask = 0
        self.mover = 1 - person
        self.visits = 0
        self.wins = 0.0
        self.amaf_visits = 0
        self.amaf_wins = 0.0
        self.proven = 0
        self.terminal = False
        self.prior = 0.0
        self.needs_prior = False
        self.complete = True
        self.unchecked = 0
        """Points among the children not yet proven legal (``SearchConfig.lazy_moves``)."""

    def expand(self, moves: list[Move], mover: int, rng: random.Random) -> None:
        # Shuffled once so ties among unvisited moves do not favour one corner of the board.
        order = list(moves)
        rng.shuffle(order)
        self.mover = mover
        self.children = [Node(m, mover) for m in order]
        for child in self.children:
            if isinstance(child.move, int):
                self.by_point[child.move] = child
                self.point_mask |= 1 << child.move


def _reward(person: int, outcome: int) -> float:
    if outcome == DRAW:
        return 0.5
    return 1.0 if outcome == person else 0.0


class Searcher:
    """One search from one position; create a new one per move (it keeps no global state)."""

    def __init__(self, game: Game, seed: int | str | None, config: SearchConfig) -> None:
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.game = game.copy()
        self.rng = random.Random(seed)
        if config.fast_paths and config.quick_turns:
            prepare(self.game, self.rng.random if config.drawn_playouts else None)
        if config.knowledge_games is not None and game.name not in config.knowledge_games:
            config = replace(config, prior_weight=0.0)
        if config.local_games is not None and game.name not in config.local_games:
            config = replace(config, local_playouts=0.0)
        if game.name not in config.shadow_games & SHADOW_GAMES:
            config = replace(config, shadow_playouts=0.0)
        self.config = config
        self.colour_index = {colour: i for i, colour in enumerate(game.players)}
        me = self.colour_index[str(game.to_move)]
        self.root = Node("", 1 - me)  # the root's move is never played
        self.root.mover = me
        self.playouts = 0

    # ----- the main loop --------------------------------------------------------------------
    def run(self, budget: Budget) -> SearchResult:
        """Search within ``budget``, with the cyclic garbage collector paused (``pause_gc``)."""
        if not (self.config.pause_gc and gc.isenabled()):
            return self._run(budget)
        gc.disable()
        try:
            return self._run(budget)
        finally:
            gc.enable()

    def _run(self, budget: Budget) -> SearchResult:
        start = time.perf_counter()
        deadline = None if budget.seconds is None else start + budget.seconds
        game, root = self.game, self.root
        moves = legal_moves(game)

        def done(move: Move, reason: str, value: float, proven: int) -> SearchResult:
            return SearchResult(
                move=move_name(game, move),
                playouts=self.playouts,
                seconds=time.perf_counter() - start,
                value=value,
                proven=proven,
                reason=reason,
            )

        if len(moves) == 1:
            return done(moves[0], "only move", 0.5, 0)
        wins = winning_moves(game, moves, deadline)
        if wins:
            return done(wins[0], "wins at once", 1.0, 1)
        if self.config.book:
            found = book_reply(game)
            if found is not None:
                return done(found[0], "opening book", found[1].value, 0)

        # The root scans may use at most half of a time budget; what they prove by then
        # still counts.
        scan_deadline = None if budget.seconds is None else start + budget.seconds / 2
        threats = game.name in self.config.threat_games
        if threats:
            for move in moves:
                if wins_in_two(game, move, scan_deadline):
                    return done(move, "wins in two", 1.0, 1)

        root.expand(moves, root.mover, self.rng)
        self._attach_priors(root, game)
        assert root.children is not None
        if self.config.block:
            lost = set(losing_moves(game, moves, scan_deadline))
            if threats and len(moves) - len(lost) > 1:
                safe_now = [m for m in moves if m not in lost]
                lost_in_two = losing_in_two(game, safe_now, scan_deadline)
                if len(lost_in_two) < len(safe_now):
                    lost.update(lost_in_two)
            if lost and len(lost) < len(moves):
                for child in root.children:
                    if child.move in lost:
                        child.proven = -1
            if len(moves) - len(lost) == 1:
                safe = next(c for c in root.children if c.proven != -1)
                return done(safe.move, "only safe move", 0.5, 0)

        limit = budget.playouts
        while root.proven == 0:
            if limit is not None and self.playouts >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if self._iterate(deadline):
                self.playouts += 1

        best = self._best_child()
        value = best.wins / best.visits if best.visits else 0.5
        if best.proven == 1:
            return done(best.move, "proven win", 1.0, 1)
        reason = "proven loss" if root.proven else "search"
        return done(best.move, reason, value, -1 if root.proven else 0)

    def _best_child(self) -> Node:
        children = self.root.children
        assert children is not None
        won = [c for c in children if c.proven == 1]
        if won:
            return max(won, key=lambda c: (c.terminal, c.visits))
        alive = [c for c in children if c.proven != -1] or children
        return max(alive, key=lambda c: (c.visits, c.wins / c.visits if c.visits else 0.0))

    # ----- one playout ----------------------------------------------------------------------
    def _iterate(self, deadline: float | None) -> bool:
        """One selection, expansion, playout and backup; False if the deadline cut it short
        (nothing is recorded then, so a slow engine cannot overrun a time budget by a playout).
        """
        game = self.game.copy()
        node = self.root
        path = [node]
        flip = 0
        index = self.colour_index
        expanded = False
        played: list[tuple[int, int]] = []
        outcome: int
        while True:
            if node is not self.root and (node.proven or node.terminal):
                outcome = DRAW if node.proven == 0 else self._proof_winner(node)
                break
            if node.children is None:
                self._expand(node, game, index[str(game.to_move)] ^ flip)
                expanded = True
            elif node.needs_prior and node.visits >= PRIOR_AFTER_VISITS[game.name]:
                self._set_priors(node, game)
            child = self._select(node, game)
            record = play(game, child.move)
            if record.swap:
                flip ^= 1
            path.append(child)
            if game.is_over:
                child.terminal = True
                if game.winner is None:
                    outcome = DRAW
                else:
                    outcome = index[game.winner] ^ flip
                    child.proven = 1 if outcome == child.person else -1
                break
            node = child
            if expanded:
                last = child.move if isinstance(child.move, int) else None
                ended = self._playout(game, flip, played, deadline, last)
                if ended is None:
                    return False
                outcome, flip = ended
                break
        keep = None
        if game.name in self.config.survivor_amaf:
            stones = stone_masks(game)
            keep = (stones[flip], stones[1 ^ flip])  # person p holds colour p ^ flip now
        self._backup(path, played, outcome, keep)
        if path[-1].proven:
            self._prove_upwards(path)
        return True

    def _expand(self, node: Node, game: Game, mover: int) -> None:
        """Create the children of a new leaf.

        With ``win_check``, a leaf whose mover can win at once gets only that winning child,
        which the solver then proves at once.  This costs one trial placement per legal move,
        but makes refutations by double threats provable with one visit per defence instead of
        needing the winning reply to be found by sampling (it decides most Crosscut games).
        """
        lazy = None
        if self.config.fast_paths and self.config.lazy_moves:
            lazy = lazy_candidates(game) or None
        if lazy is not None:
            moves: list[Move] = list(bits_list(lazy))
        elif self.config.fast_paths:
            moves, node.complete = tree_moves(game)
        else:
            moves = legal_moves(game)
        checked = 0  # lazy points proven legal by the win check
        if self.config.win_check:
            tried = candidate_moves(game, moves) if self.config.fast_paths else moves
            for move in list(tried):
                if lazy is not None and isinstance(move, int):
                    verdict = point_verdict(game, move)
                    if not verdict:
                        if verdict is None:
                            node.complete = False
                        moves.remove(move)
                        continue
                    checked |= 1 << move
                record = play(game, move)
                won = game.winner is not None and game.winner == record.player
                game.pop()
                if won:
                    moves = [move]
                    break
        if not moves:  # every candidate the win check tried was passed over
            moves, node.complete = tree_moves(game)
            lazy = None
        node.expand(moves, mover, self.rng)
        if lazy is not None:
            node.unchecked = node.point_mask & ~checked
        self._attach_priors(node, game)

    def _attach_priors(self, node: Node, game: Game) -> None:
        """Give a newly expanded node's children their priors now, or mark the node to get
        them once revisited (:data:`ai.connection.PRIOR_AFTER_VISITS`)."""
        assert node.children is not None
        if not self.config.prior_weight or len(node.children) < 2:
            return
        if PRIOR_AFTER_VISITS.get(game.name, 0):
            node.needs_prior = True
        else:
            self._set_priors(node, game)

    def _set_priors(self, node: Node, game: Game) -> None:
        """Give the children of ``node`` (whose position ``game`` holds) their priors."""
        node.needs_prior = False
        priors = move_priors(game, self.config.legality_aware)
        if priors is not None:
            assert node.children is not None
            for child in node.children:
                if isinstance(child.move, int):
                    child.prior = priors[child.move]

    @staticmethod
    def _proof_winner(node: Node) -> int:
        return node.person if node.proven == 1 else 1 - node.person

    def _select(self, node: Node, game: Game) -> Node:
        """The child to play next from ``node`` (whose position ``game`` holds): UCT with RAVE
        and progressive bias.  A child not yet proven legal (``Node.unchecked``) is decided
        when first chosen; one that is not legal, or not proven within the search's node
        budget, leaves the tree, and the choice is made again without it."""
        while True:
            best = self._uct_choice(node)
            if not node.unchecked or not isinstance(best.move, int):
                return best
            bit = 1 << best.move
            if not node.unchecked & bit:
                return best
            node.unchecked &= ~bit
            verdict = point_verdict(game, best.move)
            if verdict:
                return best
            if verdict is None:
                node.complete = False
            self._drop(node, best, game)

    def _drop(self, node: Node, child: Node, game: Game) -> None:
        """Take a placement found not to be legal out of ``node``'s children; if none is left,
        list the node's moves as a node that decides them all at once would."""
        assert node.children is not None and isinstance(child.move, int)
        node.children.remove(child)
        del node.by_point[child.move]
        node.point_mask &= ~(1 << child.move)
        if not node.children:
            moves, node.complete = tree_moves(game)
            node.by_point, node.point_mask, node.unchecked = {}, 0, 0
            node.expand(moves, node.mover, self.rng)
            self._attach_priors(node, game)

    def _uct_choice(self, node: Node) -> Node:
        children = node.children
        assert children is not None
        config = self.config
        log_n = math.log(node.visits + 1)
        c_explore = config.exploration
        k = config.rave_equivalence
        rave = config.rave
        fpu = config.first_play_urgency
        bias = config.prior_weight
        best: Node | None = None
        best_value = -math.inf
        for c in children:
            proven = c.proven
            if proven:
                if proven == 1:
                    return c
                continue
            n = c.visits
            q = c.wins / n if n else fpu
            if rave and c.amaf_visits:
                beta = math.sqrt(k / (3 * n + k))
                q = (1.0 - beta) * q + beta * (c.amaf_wins / c.amaf_visits)
            value = q + c_explore * math.sqrt(log_n / (n + 1))
            if bias:
                value += bias * c.prior / (n + 1)
            if value > best_value:
                best, best_value = c, value
        return best if best is not None else children[0]

    def _playout(
        self,
        game: Game,
        flip: int,
        played: list[tuple[int, int]],
        deadline: float | None,
        last: int | None = None,
    ) -> tuple[int, int] | None:
        """Uniformly random legal moves to the end: (the winning person or DRAW, ``flip`` where
        the playout ended, which a swap in it changes), or None if the deadline passed first."""
        rand = self.rng.random
        index = self.colour_index
        clock = time.perf_counter
        fast = self.config.fast_paths
        local = self.config.local_playouts
        ring = game.grid.ring_bits
        every = self.config.cutoff if game.name in CUTOFF_GAMES else 0
        guided = game.name in self.config.playout_games
        judge_at = self.config.distance_eval if guided and game.name in EVAL_GAMES else 0
        on_paths = self.config.path_playouts if guided and game.name in PATH_PLAYOUT_GAMES else 0.0
        bars = self.config.barred_games
        lines = self.config.line_playouts if game.name in RUN_GAMES else 0.0
        edge = self.config.perimeter_playouts if game.name in RUN_GAMES else 0.0
        perimeter = game.grid.perimeter
        capture_mask = getattr(game, "capture_mask", None) if self.config.capture_playouts else None
        capture = self.config.capture_playouts
        shadow = self.config.shadow_playouts
        across = across_bits(game.size)
        last_colour = -1  # the colour of the stone on ``last``; -1: none to answer
        if shadow and last is not None:
            stones = stone_masks(game)
            last_colour = 0 if stones[0] >> last & 1 else 1 if stones[1] >> last & 1 else -1
        moves_made = 0
        while not game.is_over:
            if deadline is not None and clock() > deadline:
                return None
            if every and moves_made % every == every - 1:
                winner = decided_winner(game)
                if winner is not None:
                    return index[game.players[winner]] ^ flip, flip
            if moves_made == judge_at and judge_at:
                return index[game.players[distance_leader(game, bars)]] ^ flip, flip
            moves_made += 1
            colour = index[str(game.to_move)]
            mover = colour ^ flip
            point = None
            if shadow and last_colour == 1 - colour and last is not None and rand() < shadow:
                point = local_point(game, across[last_colour][last], rand)
            if point is not None:
                pass
            elif capture_mask is not None and rand() < capture:
                point = local_point(game, capture_mask(), rand)  # None if there is no capture
            elif local and last is not None and rand() < local:
                point = local_point(game, ring[last], rand)
            elif edge and rand() < edge:
                point = local_point(game, perimeter, rand)  # None if no perimeter point flips
            elif on_paths and rand() < on_paths:
                point = local_point(game, path_points(game, bars), rand)
            elif lines and rand() < lines:
                point = line_point(game, rand)
                if point is not None and not legal_among(game, 1 << point):
                    point = None
            if point is not None:
                pass
            elif fast:
                point = random_point(game, rand)
            else:
                mask = game.legal_mask()
                points = bits_list(mask)
                point = points[int(rand() * len(points))] if mask else None
            if point is not None:
                game.play_index(point)
                played.append((point, mover))
                last, last_colour = point, colour
            else:
                moves = game.legal_moves()
                if game.play(moves[int(rand() * len(moves))]).swap:
                    flip ^= 1
        if game.winner is None:
            return DRAW, flip
        return index[game.winner] ^ flip, flip

    def _backup(
        self,
        path: list[Node],
        played: list[tuple[int, int]],
        outcome: int,
        keep: tuple[int, int] | None = None,
    ) -> None:
        """Count the outcome in every node of ``path`` and, with RAVE, in the siblings whose
        point the same person took later in the iteration (only the points in ``keep``, the
        persons' stones at the end, when it is given: ``SearchConfig.survivor_amaf``)."""
        for node in path:
            node.visits += 1
            node.wins += _reward(node.person, outcome)
        if not self.config.rave:
            return
        # seen[p]: points person p placed on at or below the current depth of the walk.
        seen = [0, 0]
        for point, person in played:
            seen[person] |= 1 << point
        held = keep if keep is not None else (-1, -1)
        for i in range(len(path) - 1, -1, -1):
            node = path[i]
            if i + 1 < len(path):
                step = path[i + 1]
                if isinstance(step.move, int):
                    seen[step.person] |= 1 << step.move
            if node.children is None:
                continue
            hits = seen[node.mover] & node.point_mask & held[node.mover]
            if not hits:
                continue
            reward = _reward(node.mover, outcome)
            by_point = node.by_point
            for point in bits_list(hits):
                child = by_point[point]
                child.amaf_visits += 1
                child.amaf_wins += reward

    def _prove_upwards(self, path: list[Node]) -> None:
        for i in range(len(path) - 2, -1, -1):
            node = path[i]
            children = node.children
            assert children is not None
            if any(c.proven == 1 for c in children):
                winner = node.mover
            elif node.complete and all(c.proven == -1 for c in children):
                winner = 1 - node.mover
            else:
                return
            node.proven = 1 if winner == node.person else -1


def search(
    game: Game,
    budget: Budget,
    seed: int | str | None = None,
    config: SearchConfig = DEFAULT_CONFIG,
) -> SearchResult:
    """Choose a move for the player to move in ``game`` (which is left unchanged)."""
    return Searcher(game, seed, config).run(budget)
