"""What every feature's query class shares: the transaction whose primitives it runs on."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..tx import SharedTx


class Queries:
    """One feature's queries over one transaction (``tx.<feature>``): composition, not a
    mixin, so a feature's SQL is read in one module and the transaction stays small."""

    __slots__ = ("_tx",)

    def __init__(self, tx: SharedTx) -> None:
        self._tx = tx
