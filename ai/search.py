"""Monte Carlo tree search: UCT with RAVE, an MCTS-Solver, and exact one-ply root tactics.

Why each part is here:

* **Random playouts** through the real engine (``legal_mask`` + ``play_index``) are the only
  evaluation, so the search is generic over every :class:`rules.Game` and can never play an
  illegal move.  How a playout picks its moves, and whether it stops early, is a
  :class:`ai.playouts.Playout` object per game, so the loop here has no game-specific rule.
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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules import Game
from rules.geometry import bits_list

from .connection import PRIOR_AFTER_VISITS
from .endgame import Endgame, Verdict
from .evaluators import (
    DRAW,
    ConnectionPrior,
    Evaluator,
    Leaf,
    PlayoutEvaluator,
    SolverEvaluator,
)
from .moves import (
    Move,
    chain_points,
    lazy_candidates,
    legal_moves,
    move_name,
    play,
    point_verdict,
    prepare,
    tree_moves,
)
from .playouts import NEAR_LAST, ON_PATHS, UNIFORM, Playout
from .tactics import (
    candidate_moves,
    losing_in_two,
    losing_moves,
    winning_moves,
    wins_at_once,
    wins_in_two,
)
from .tree import ACTIVE, Tree

if TYPE_CHECKING:
    from .tree import Node
else:
    # The node a search builds by default (compiled where the core is built): code that makes
    # a node to hand to a Searcher, as the tests do, gets the kind it expects.
    Node = ACTIVE.node

__all__ = ["DRAW"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long to think: a number of playouts, a number of seconds, or both (whichever ends
    first).  A playout-only budget makes the search deterministic for a given seed.

    ``chain_seconds`` (with ``seconds``): a move after which the same player places again (a
    Clear Path chain placement, :func:`ai.moves.chain_points`) is chosen only within this many
    seconds; a search still running then plays a move that ends the turn.  It lets the
    placements of one turn share the turn's seconds (:func:`ai.levels.placement_budget`)
    while a placement that ends the turn keeps them all."""

    playouts: int | None = None
    seconds: float | None = None
    chain_seconds: float | None = None

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
        if self.chain_seconds is not None and not (
            isinstance(self.chain_seconds, int | float)
            and self.seconds is not None
            and 0 < self.chain_seconds <= self.seconds
        ):
            raise ValueError(
                f"chain_seconds must be a positive number within seconds, not "
                f"{self.chain_seconds!r}"
            )


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How the search plays, as the levels set it; the field defaults are :data:`BASIC_CONFIG`
    (level 2), and :data:`DEFAULT_CONFIG` is levels 3 to 5."""

    rave: bool = True
    """Share what a point was worth anywhere later in a playout (off: plain UCT, which needs
    more ``exploration``)."""
    exploration: float = 0.25
    rave_equivalence: float = 400.0
    """Visits at which a child's own value and its RAVE value weigh the same."""
    first_play_urgency: float = 1.0
    """The value of a child not yet visited: 1 makes every child get a visit before any gets
    a second, as plain UCT does."""
    win_check: bool = True
    """Look for a win in one whenever a tree node is expanded (see ``Searcher._expand``)."""
    block: bool = True
    """Mark the root moves that let the opponent win at once as lost (off at level 1, so a
    beginner's threat can succeed)."""
    threat_games: frozenset[str] = frozenset()
    """Games where the root looks two moves deep: it plays a move that wins in two
    (:func:`ai.tactics.wins_in_two`: a threat no answer stops) and, with ``block``, marks
    moves that lose in two (:func:`ai.tactics.losing_in_two`) as lost."""
    prior_weight: float = 1.0
    """Progressive bias: a new child's value gets ``prior_weight * prior / (visits + 1)``, the
    prior coming from connection knowledge (:func:`ai.connection.move_priors`)."""
    prior_games: frozenset[str] = frozenset({"clearpath"})
    """The games where ``prior_weight`` applies: where the priors were measured to pay."""
    playouts: tuple[tuple[str, Playout], ...] = (("clearpath", NEAR_LAST),)
    """The playout of each game named here (:mod:`ai.playouts`); the others play uniformly."""
    endgame_empties: int = 0
    """Solve positions with at most this many empty points exactly (:mod:`ai.endgame`): the
    root first, then each new tree node; 0 never does."""
    endgame_root_nodes: int = 20_000
    """Solver nodes per side for the root's question (also within half the seconds, if any)."""
    endgame_tree_nodes: int = 100
    """Solver nodes per side for a tree node's question: a question left unsettled costs
    playouts, so it is kept small; the solver's tables carry over, so later ones get cheaper."""

    def playout_for(self, game: str) -> Playout:
        return dict(self.playouts).get(game, UNIFORM)


BASIC_CONFIG = SearchConfig()
"""Levels 1 (with ``block`` off) and 2: one move deep at the root, priors and playouts next to
the last stone in Clear Path only."""
DEFAULT_CONFIG = SearchConfig(
    threat_games=frozenset({"crosscut"}),
    prior_games=frozenset({"clearpath", "crosscut"}),
    playouts=(("clearpath", NEAR_LAST), ("minefield", ON_PATHS), ("nakeddiagonal", ON_PATHS)),
)
"""Levels 3 to 5 and ``search()``: also two moves deep at the root and the engine-scored prior
in Crosscut, and in Minefield and Naked Diagonal playouts along both sides' shortest paths,
judged by distance after six moves."""


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


def _in(move: Move, mask: int) -> bool:
    return isinstance(move, int) and bool(mask >> move & 1)


_Found = tuple[Move, str, float, int]
"""A search's choice: the move, why, its value and whether it is proven (1, 0, -1)."""


@dataclass(frozen=True, slots=True)
class _Clock:
    """A search's deadlines: the budget's end; the root scans' (at most half a time budget,
    or half the seconds in which a chain placement may be chosen, if that is less: what
    they prove by then counts); and the chain placements' (``chained``) end."""

    deadline: float | None
    scan: float | None
    chain: float | None
    chained: int

    @staticmethod
    def of(budget: Budget, start: float, game: Game) -> _Clock:
        seconds, chain_seconds = budget.seconds, budget.chain_seconds
        deadline = None if seconds is None else start + seconds
        scan = None if seconds is None else start + seconds / 2
        chained = chain_points(game) if chain_seconds is not None else 0
        chain = None
        if chained and chain_seconds is not None:
            chain = start + chain_seconds
            scan = start + chain_seconds / 2
        return _Clock(deadline, scan, chain, chained)


class Searcher:
    """One search from one position; create a new one per move (it keeps no global state)."""

    def __init__(
        self,
        game: Game,
        seed: int | str | None,
        config: SearchConfig,
        tree: Tree = ACTIVE,
    ) -> None:
        """``tree``: the node and the per-step functions (:mod:`ai.tree`), compiled or pure:
        the same search either way."""
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.game = game.copy()
        self.rng = random.Random(seed)
        # The engine's search fast paths: the skip rule applied lazily and playout moves drawn
        # by rejection (``Game.use_quick_turns``); play stays exactly the same.
        prepare(self.game, self.rng.random)
        self.config = config
        self.tree = tree
        self.prior_weight = config.prior_weight if game.name in config.prior_games else 0.0
        self.playout = config.playout_for(game.name)
        self.colour_index = {colour: i for i, colour in enumerate(game.players)}
        me = self.colour_index[str(game.to_move)]
        self.root = tree.node("", 1 - me)  # the root's move is never played
        self.root.mover = me
        self.playouts = 0
        self.endgame = Endgame(game, config.endgame_empties) if config.endgame_empties else None
        # The evaluators (ai.evaluators): the playout samples a new leaf, the solver proves
        # one where the endgame allows, the connection priors weight a node's children.
        self.rollout = PlayoutEvaluator(self.playout, self.rng.random, self.colour_index)
        self.exact: Evaluator | None = None
        if self.endgame is not None:
            self.exact = SolverEvaluator(self.endgame, config.endgame_tree_nodes)
        self.priors: Evaluator | None = ConnectionPrior() if self.prior_weight else None

    # ----- the main loop --------------------------------------------------------------------
    def run(self, budget: Budget) -> SearchResult:
        """Search within ``budget`` with the cyclic garbage collector paused.

        The tree holds no reference cycles and a search makes no cyclic garbage (a test checks
        both), so reference counting frees everything and the collections would only walk the
        growing tree: 4–6 % of a long search's CPU (``bench/search_gc.py`` measures it with
        :meth:`run_collecting`).  The collector's previous state is restored afterwards, so a
        caller that paused it keeps it paused.
        """
        if not gc.isenabled():
            return self.run_collecting(budget)
        gc.disable()
        try:
            return self.run_collecting(budget)
        finally:
            gc.enable()

    def run_collecting(self, budget: Budget) -> SearchResult:
        """The same search as :meth:`run`, leaving the garbage collector as it is."""
        start = time.perf_counter()
        clock = _Clock.of(budget, start, self.game)
        found = self._root_tactics(clock)
        if found is None:
            found = self._sample(budget, clock)
        move, reason, value, proven = found
        return SearchResult(
            move=move_name(self.game, move),
            playouts=self.playouts,
            seconds=time.perf_counter() - start,
            value=value,
            proven=proven,
            reason=reason,
        )

    def _root_tactics(self, clock: _Clock) -> _Found | None:
        """What the root's exact scans decide before any sampling (a single move, a win in
        one or two, a solved endgame, a single safe move), or None; expands the root (with
        the moves the scans prove lost marked so) when sampling is needed."""
        game, root = self.game, self.root
        moves = legal_moves(game)
        if len(moves) == 1:
            return moves[0], "only move", 0.5, 0
        wins = winning_moves(game, moves, clock.deadline)
        if wins:
            return wins[0], "wins at once", 1.0, 1
        endgame = self.endgame
        if endgame is not None and endgame.applies(game):
            verdict = endgame.verdict(game, self.config.endgame_root_nodes, clock.scan)
            if verdict is Verdict.MOVER_WINS:
                return endgame.winning_move(game), "endgame solved", 1.0, 1
        threats = game.name in self.config.threat_games
        if threats:
            for move in moves:
                if wins_in_two(game, move, clock.scan):
                    return move, "wins in two", 1.0, 1
        root.expand(moves, root.mover, self.rng)
        self._attach_priors(root, game)
        if not self.config.block:
            return None
        lost = self._lost_at_root(moves, threats, clock.scan)
        assert root.children is not None
        if lost and len(lost) < len(moves):
            for child in root.children:
                if child.move in lost:
                    child.proven = -1
        if len(moves) - len(lost) == 1:
            safe = next(c for c in root.children if c.proven != -1)
            return safe.move, "only safe move", 0.5, 0
        return None

    def _lost_at_root(self, moves: list[Move], threats: bool, scan: float | None) -> set[Move]:
        """The root moves that hand the opponent a win in one (and, in the threat games, in
        two, unless that would leave no move)."""
        game = self.game
        lost = set(losing_moves(game, moves, scan))
        if threats and len(moves) - len(lost) > 1:
            safe_now = [m for m in moves if m not in lost]
            lost_in_two = losing_in_two(game, safe_now, scan)
            if len(lost_in_two) < len(safe_now):
                lost.update(lost_in_two)
        return lost

    def _sample(self, budget: Budget, clock: _Clock) -> _Found:
        """Iterate until the budget is spent or the root is proven, and choose."""
        root = self.root
        limit = budget.playouts
        deadline, chain_deadline = clock.deadline, clock.chain
        avoid = 0  # chain placements, once their time is up
        while root.proven == 0:
            if limit is not None and self.playouts >= limit:
                break
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                if chain_deadline is not None and now >= chain_deadline:
                    chain_deadline = None
                    if self._chain_decided(clock.chained):
                        break
                    avoid = clock.chained
            if self._iterate(deadline):
                self.playouts += 1
        best = self._best_child(avoid)
        value = best.wins / best.visits if best.visits else 0.5
        if best.proven == 1:
            return best.move, "proven win", 1.0, 1
        reason = "proven loss" if root.proven else "search"
        return best.move, reason, value, -1 if root.proven else 0

    def _best_child(self, avoid: int = 0) -> Node:
        """The root's child to play: a proven win, else the most visited of those not proven
        lost, leaving out the placements in ``avoid`` while any other is left."""
        children = self.root.children
        assert children is not None
        won = [c for c in children if c.proven == 1]
        if won:
            return max(won, key=lambda c: (c.terminal, c.visits))
        alive = [c for c in children if c.proven != -1] or children
        if avoid:
            alive = [c for c in alive if not _in(c.move, avoid)] or alive
        return max(alive, key=lambda c: (c.visits, c.wins / c.visits if c.visits else 0.0))

    def _chain_decided(self, chained: int) -> bool:
        """At the end of a chain placement's time: whether to stop and play the best child,
        a chain placement the search has visited or one of nothing but chain placements
        left; otherwise the search goes on and plays a move that ends the turn."""
        best = self._best_child()
        if not _in(best.move, chained):
            return False
        children = self.root.children
        assert children is not None
        alive = [c for c in children if c.proven != -1]
        return best.visits > 0 or all(_in(c.move, chained) for c in alive)

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
                mover = index[str(game.to_move)] ^ flip
                if node is not self.root and self._solved(node, game, mover, deadline):
                    outcome = self._proof_winner(node)
                    break
                self._expand(node, game, mover)
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
        self._backup(path, played, outcome)
        if path[-1].proven:
            self._prove_upwards(path)
        return True

    def _solved(self, node: Node, game: Game, mover: int, deadline: float | None) -> bool:
        """Settle a new leaf with the exact solver where the endgame allows it: mark it proven
        (for whoever moved into it) and say so; False leaves it to sampling."""
        if self.exact is None:
            return False
        winner = self.exact.evaluate(game, Leaf(mover, deadline=deadline))
        if winner is None:
            return False
        node.proven = 1 if winner == node.person else -1
        return True

    def _expand(self, node: Node, game: Game, mover: int) -> None:
        """Create the children of a new leaf.

        With ``win_check``, a leaf whose mover can win at once gets only that winning child,
        which the solver then proves at once.  This costs one trial placement per legal move,
        but makes refutations by double threats provable with one visit per defence instead of
        needing the winning reply to be found by sampling (it decides most Crosscut games).
        """
        # Naked Diagonal lists the points that form no naked diagonal and decides each when it
        # is first selected (``_select``): most nodes are visited once and never need the rest.
        lazy = lazy_candidates(game) or None
        if lazy is not None:
            moves: list[Move] = list(bits_list(lazy))
        else:
            moves, node.complete = tree_moves(game)
        checked = 0  # lazy points proven legal by the win check
        if self.config.win_check:
            for move in list(candidate_moves(game, moves)):
                if lazy is not None and isinstance(move, int):
                    verdict = point_verdict(game, move)
                    if not verdict:
                        if verdict is None:
                            node.complete = False
                        moves.remove(move)
                        continue
                    checked |= 1 << move
                if wins_at_once(game, move):
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
        if not self.prior_weight or len(node.children) < 2:
            return
        if PRIOR_AFTER_VISITS.get(game.name, 0):
            node.needs_prior = True
        else:
            self._set_priors(node, game)

    def _set_priors(self, node: Node, game: Game) -> None:
        """Give the children of ``node`` (whose position ``game`` holds) their priors."""
        node.needs_prior = False
        priors = None if self.priors is None else self.priors.prior(game)
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
        config = self.config
        return self.tree.uct_choice(
            node,
            config.exploration,
            config.rave_equivalence,
            config.rave,
            config.first_play_urgency,
            self.prior_weight,
        )

    def _playout(
        self,
        game: Game,
        flip: int,
        played: list[tuple[int, int]],
        deadline: float | None,
        last: int | None = None,
    ) -> tuple[int, int] | None:
        """Play the game out with the search's :class:`ai.playouts.Playout` from the position
        ``game`` holds, recording each placement and its person in ``played``: (the winning
        person or DRAW, ``flip`` where the playout ended, which a swap in it changes), or None
        if the deadline passed first.  ``last`` is the placement that led here, if any."""
        leaf = Leaf(-1, flip, last, deadline, played)
        outcome = self.rollout.evaluate(game, leaf)
        if outcome is None:
            return None
        return outcome, leaf.flip

    def _backup(self, path: list[Node], played: list[tuple[int, int]], outcome: int) -> None:
        """Count the outcome in every node of ``path`` and, with RAVE, in the siblings whose
        point the same person took later in the iteration (:func:`ai.tree.backup`)."""
        self.tree.backup(path, played, outcome, self.config.rave)

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
