"""One step of a df-pn node's loop, shared by every df-pn here (issue 49).

Depth-first proof-number search (Nagai 2002) with the 1+ε trick (Pawlewicz and Lew 2007):
a node's proof and disproof numbers come from its children's, and while they stay under the
node's thresholds the search descends into the child with the least "phi" (the number the
player to move wants to bring to 0: the proof number at the attacker's node, the disproof
number at the defender's), with thresholds that send it back up once that child is no longer
clearly the best.  The engine df-pn (:mod:`ai.dfpn`) and the bitboard ones
(:mod:`ai.dfpn_bits`, :mod:`ai.dfpn_clearpath`, :mod:`ai.dfpn_clearcut`) differ in how they
make and value children, never in this arithmetic, so it is written once here.
"""

from __future__ import annotations

import math

INF = 1 << 40
"""A proof or disproof number that can never come down: the node is settled the other way."""

WIN = (0, INF)
"""The (pn, dn) of a node the attacker has won."""
LOSS = (INF, 0)
"""The (pn, dn) of a node the attacker cannot win (lost, or drawn)."""

EPSILON = 0.25
"""The 1+epsilon trick's slack: the best child is searched until its phi passes the second
best's by this fraction, which saves most of the back-and-forth between near-equal children."""


def descend(
    values: list[tuple[int, int]], attacking: bool, thpn: int, thdn: int
) -> tuple[int, int, int, int, int]:
    """A node's (pn, dn) from its children's ``values`` (each (pn, dn)), and where to go next:
    ``(pn, dn, best, child_thpn, child_thdn)``, with ``best`` the index of the child to search
    under those thresholds, or -1 when the node is done (settled, or past a threshold)."""
    if attacking:
        phis = [v[0] for v in values]
        deltas = [v[1] for v in values]
    else:
        phis = [v[1] for v in values]
        deltas = [v[0] for v in values]
    phi = min(phis, default=INF)
    delta = min(sum(deltas), INF)
    pn, dn = (phi, delta) if attacking else (delta, phi)
    if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
        return pn, dn, -1, 0, 0
    best = phis.index(phi)
    # The second best phi: cheap when several children share the best.
    if len(phis) == 1:
        second = INF
    elif phis.count(phi) > 1:
        second = phi
    else:
        second = min(phis[:best] + phis[best + 1 :])
    th_phi = thpn if attacking else thdn
    th_delta = thdn if attacking else thpn
    child_phi = min(th_phi, math.ceil(second * (1 + EPSILON)) if second < INF else INF)
    child_phi = max(child_phi, phi + 1)
    child_delta = min(INF, th_delta - delta + deltas[best])
    # Our phi is the child's pn at an attacker's node and its dn at a defender's.
    if attacking:
        return pn, dn, best, child_phi, child_delta
    return pn, dn, best, child_delta, child_phi
