# Types of the compiled playout core (ai/_fastcore.c); the Python kernels in ai/fast/ call it.
from collections.abc import Callable, Sequence

Random = Callable[[], float]
Clock = Callable[[], float] | None
Ran = int | tuple[int, int | None] | None

def clearpath(
    rand: Random,
    clock: Clock,
    deadline: float,
    played: list[tuple[int, int]],
    flip: int,
    n: int,
    first: int,
    second: int,
    oip_first_a: int,
    oip_first_b: int,
    oip_second_a: int,
    oip_second_b: int,
    odip_first_a: int,
    odip_first_b: int,
    odip_second_a: int,
    odip_second_b: int,
    turn: int,
    turn_number: int,
    known: int | None,
    last: int | None,
    near: float | None,
    stop: int,
    /,
) -> Ran: ...
def minefield(
    rand: Random,
    clock: Clock,
    deadline: float,
    played: list[tuple[int, int]],
    flip: int,
    n: int,
    first: int,
    second: int,
    reach_first_a: int,
    reach_first_b: int,
    reach_second_a: int,
    reach_second_b: int,
    turn: int,
    last: int | None,
    on_paths: float | None,
    path_bars: bool,
    verdict_bars: bool,
    stop: int,
    /,
) -> Ran: ...
def crosscut(
    rand: Random,
    clock: Clock,
    deadline: float,
    played: list[tuple[int, int]],
    flip: int,
    n: int,
    first: int,
    second: int,
    turn: int,
    known: int | None,
    last: int | None,
    stop: int,
    /,
) -> Ran: ...
def clearcut(
    rand: Random,
    clock: Clock,
    deadline: float,
    played: list[tuple[int, int]],
    flip: int,
    n: int,
    first: int,
    second: int,
    reach_first_a: int,
    reach_first_b: int,
    reach_second_a: int,
    reach_second_b: int,
    turn: int,
    turn_number: int,
    known: int | None,
    last: int | None,
    pie: bool,
    stop: int,
    /,
) -> Ran: ...
def set_glyph_terms(terms: Sequence[Sequence[tuple[int, int, int]]], /) -> None: ...
def glyphs(n: int, first: int, second: int, empty: int, /) -> tuple[int, int]: ...

# The search tree (ai/_fastcore_tree.h): the compiled twins of ai.tree.
class Node:
    move: int | str
    children: list[Node] | None
    by_point: dict[int, Node]
    point_mask: int
    unchecked: int
    visits: int
    amaf_visits: int
    wins: float
    amaf_wins: float
    prior: float
    person: int
    mover: int
    proven: int
    terminal: bool
    needs_prior: bool
    complete: bool
    def __init__(self, move: int | str, person: int) -> None: ...
    def expand(self, moves: list[int | str], mover: int, rng: object, /) -> None: ...

def uct_choice(
    node: Node,
    exploration: float,
    rave_equivalence: float,
    rave: bool,
    fpu: float,
    bias: float,
    /,
) -> Node: ...
def backup(
    path: list[Node], played: list[tuple[int, int]], outcome: int, rave: bool, /
) -> None: ...
def path_points(n: int, own: int, opp: int, player: int, /) -> tuple[int, int]: ...
def clearpath_legal(
    n: int,
    first: int,
    second: int,
    oip_first_a: int,
    oip_first_b: int,
    oip_second_a: int,
    oip_second_b: int,
    odip_first_a: int,
    odip_first_b: int,
    odip_second_a: int,
    odip_second_b: int,
    turn: int,
    /,
) -> int: ...
def clearcut_legal(n: int, own: int, opp: int, /) -> int: ...
def crosscut_legal(n: int, own: int, opp: int, /) -> int: ...
def crosscut_winning(n: int, own: int, opp: int, mask: int, /) -> int: ...
def crosscut_priors(n: int, own: int, opp: int, /) -> list[float]: ...
