/* Naked Diagonal's hottest area-check loops, compiled: exact twins of pure functions.
 *
 * Each function here is a port of one pure-Python function, which stays the reference and
 * runs wherever this optional extension is absent (or CROSSPATH_PURE_PYTHON=1 is set):
 *
 *   bits                    rules.geometry.bits_list (and nakeddiagonal._bits)
 *   flood, components       rules.nd_area.AreaSolver.flood / .components
 *   timeline                rules.nd_area.AreaSolver.timeline
 *   fills_after_recolouring rules.nd_area.AreaSolver.fills_after_recolouring
 *   repair                  rules.nd_area.AreaSolver._repair
 *
 * Why whole loops and not one-line leaves: a Python int crosses into C once per call (a
 * bitboard of up to 361 bits becomes six 64-bit words) and every step of the flood, the
 * timeline replay or the repair then runs on words and bytes.  Each twin returns exactly
 * what its Python twin returns (tests/rules/test_nd_core.py compares them on many random
 * inputs at every size from 4 to 19), so verdicts, witnesses and node counts are unchanged.
 *
 * Only the public C API of CPython 3.11+ is used; ints cross into C and back through
 * rules/_pyint_words.h, shared with ai/_fastcore.c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_pyint_words.h"

#define MAXN 19
#define MAXAREA (MAXN * MAXN)
#define W 6 /* 64-bit words of a 19x19 bitboard */
#define NO_STEP 0xFFFF /* rules.nd_area.NO_STEP */

typedef struct {
    uint64_t w[W];
} bb;

/* --- ints <-> bitboards ------------------------------------------------------------------- */

static int to_bb(PyObject *v, bb *out) { return pyint_to_words(v, out->w, W); }

static PyObject *from_bb(const bb *b) { return words_to_pyint(b->w, W); }

static inline int bb_get(const bb *b, int i) { return (int)(b->w[i >> 6] >> (i & 63) & 1); }
static inline void bb_set(bb *b, int i) { b->w[i >> 6] |= (uint64_t)1 << (i & 63); }

static inline int bb_eq(const bb *a, const bb *b, int nw) {
    for (int i = 0; i < nw; i++)
        if (a->w[i] != b->w[i]) return 0;
    return 1;
}

static inline int bb_any(const bb *a, int nw) {
    for (int i = 0; i < nw; i++)
        if (a->w[i]) return 1;
    return 0;
}

/* r = m >> k (0 < k < 64) and m << k, over nw words. */
static inline void shr(bb *r, const bb *m, int k, int nw) {
    for (int i = 0; i < nw; i++)
        r->w[i] = m->w[i] >> k | (i + 1 < nw ? m->w[i + 1] << (64 - k) : 0);
}

static inline void shl(bb *r, const bb *m, int k, int nw) {
    for (int i = nw - 1; i >= 0; i--) r->w[i] = m->w[i] << k | (i > 0 ? m->w[i - 1] >> (64 - k) : 0);
}

/* --- one board size's tables (rules.geometry.Grid) ----------------------------------------- */

typedef struct {
    int n, area, nw;
    bb full, not_left, not_right;
    int nring[MAXAREA], ring[MAXAREA][8]; /* Grid.ring: the 8 neighbours, in RING order */
    int nblocks[MAXAREA], blocks[MAXAREA][4][3]; /* Grid.squares: (diagonal, horizontal, vertical) */
} Geo;

static Geo geos[MAXN + 1];
static int geo_ready[MAXN + 1];
static PyObject *moves[MAXAREA][2]; /* the (point, colour) tuples, made once */

static const int RING_STEPS[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                     {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static Geo *geo(PyObject *size) {
    long n = PyLong_AsLong(size);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 1 || n > MAXN) {
        PyErr_SetString(PyExc_ValueError, "board size out of range");
        return NULL;
    }
    Geo *g = &geos[n];
    if (geo_ready[n]) return g;
    memset(g, 0, sizeof *g);
    g->n = (int)n;
    g->area = (int)(n * n);
    g->nw = (g->area + 63) / 64;
    for (int i = 0; i < g->area; i++) {
        int c = i % g->n, r = i / g->n;
        bb_set(&g->full, i);
        if (c != 0) bb_set(&g->not_left, i);
        if (c != g->n - 1) bb_set(&g->not_right, i);
        for (int s = 0; s < 8; s++) {
            int cc = c + RING_STEPS[s][0], rr = r + RING_STEPS[s][1];
            if (cc >= 0 && cc < g->n && rr >= 0 && rr < g->n) g->ring[i][g->nring[i]++] = rr * g->n + cc;
        }
        for (int s = 4; s < 8; s++) {
            int dx = RING_STEPS[s][0], dy = RING_STEPS[s][1];
            if (c + dx >= 0 && c + dx < g->n && r + dy >= 0 && r + dy < g->n) {
                int *b = g->blocks[i][g->nblocks[i]++];
                b[0] = i + dx + dy * g->n;
                b[1] = i + dx;
                b[2] = i + dy * g->n;
            }
        }
    }
    geo_ready[n] = 1;
    return g;
}

/* Grid.dilate4 / dilate8 */
static inline void dilate(const Geo *g, bb *r, const bb *m, int diagonal) {
    bb a, b, h;
    int nw = g->nw, n = g->n;
    shr(&a, m, 1, nw);
    shl(&b, m, 1, nw);
    for (int i = 0; i < nw; i++) h.w[i] = m->w[i] | (a.w[i] & g->not_right.w[i]) | (b.w[i] & g->not_left.w[i]);
    const bb *v = diagonal ? &h : m;
    shr(&a, v, n, nw);
    shl(&b, v, n, nw);
    for (int i = 0; i < nw; i++) r->w[i] = (h.w[i] | a.w[i] | b.w[i]) & g->full.w[i];
}

/* AreaSolver.flood: the part of ``within`` connected to ``seed`` (seed bits outside
 * ``within`` are dropped after the first step, as the Python loop does). */
static void flood_bb(const Geo *g, bb *region, const bb *within, int diagonal) {
    bb nxt;
    memset(&nxt, 0, sizeof nxt); /* dilate writes the board's words only */
    for (;;) {
        dilate(g, &nxt, region, diagonal);
        for (int i = 0; i < g->nw; i++) nxt.w[i] &= within->w[i];
        if (bb_eq(&nxt, region, g->nw)) return;
        *region = nxt;
    }
}

/* --- bits(mask) -> list[int] --------------------------------------------------------------- */

static PyObject *list_of_bits(const bb *b) {
    int count = 0;
    for (int i = 0; i < W; i++) count += __builtin_popcountll(b->w[i]);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    int k = 0;
    for (int i = 0; i < W; i++) {
        uint64_t x = b->w[i];
        while (x) {
            PyObject *v = PyLong_FromLong(i * 64 + __builtin_ctzll(x));
            if (!v) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, k++, v);
            x &= x - 1;
        }
    }
    return out;
}

static PyObject *bits(PyObject *self, PyObject *mask) {
    bb b;
    if (to_bb(mask, &b) < 0) return NULL;
    return list_of_bits(&b);
}

/* --- flood(size, seed, within, diagonal) and components(size, cells, diagonal) ------------- */

static PyObject *flood(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "flood(size, seed, within, diagonal)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb region, within;
    if (!g || to_bb(args[1], &region) < 0 || to_bb(args[2], &within) < 0) return NULL;
    int diagonal = PyObject_IsTrue(args[3]);
    if (diagonal < 0) return NULL;
    flood_bb(g, &region, &within, diagonal);
    return from_bb(&region);
}

static PyObject *components(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "components(size, cells, diagonal)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb cells;
    if (!g || to_bb(args[1], &cells) < 0) return NULL;
    int diagonal = PyObject_IsTrue(args[2]);
    if (diagonal < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (;;) {
        int i = 0;
        while (i < W && !cells.w[i]) i++;
        if (i == W) break;
        bb part;
        memset(&part, 0, sizeof part);
        part.w[i] = cells.w[i] & -cells.w[i];
        flood_bb(g, &part, &cells, diagonal);
        for (int j = 0; j < W; j++) cells.w[j] &= ~part.w[j];
        PyObject *v = from_bb(&part);
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

/* --- witnesses ----------------------------------------------------------------------------- */

/* One move of a witness (a 2-sequence of ints) as point and colour, checked. */
static int read_move(const Geo *g, PyObject *m, int *p, int *c) {
    PyObject *seq = PySequence_Fast(m, "a move must be a (point, colour) pair");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a move must be a (point, colour) pair");
        return -1;
    }
    long pv = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, 0));
    long cv = pv == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, 1));
    Py_DECREF(seq);
    if (PyErr_Occurred()) return -1;
    if (pv < 0 || pv >= g->area || (cv != 0 && cv != 1)) {
        PyErr_SetString(PyExc_ValueError, "a move off the board or of no colour");
        return -1;
    }
    *p = (int)pv;
    *c = (int)cv;
    return 0;
}

static PyObject *move(int p, int c) {
    if (!moves[p][c]) {
        PyObject *a = PyLong_FromLong(p), *b = PyLong_FromLong(c);
        if (a && b) moves[p][c] = PyTuple_Pack(2, a, b);
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!moves[p][c]) return NULL;
    }
    Py_INCREF(moves[p][c]);
    return moves[p][c];
}

/* --- timeline(size, red, blue, witness) -> str --------------------------------------------- */

static PyObject *timeline(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "timeline(size, red, blue, witness)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb st[2];
    if (!g || to_bb(args[1], &st[0]) < 0 || to_bb(args[2], &st[1]) < 0) return NULL;
    PyObject *seq = PySequence_Fast(args[3], "a witness must be a sequence of moves");
    if (!seq) return NULL;
    int a = g->area, n = g->n;
    Py_UCS2 out[2 * MAXAREA];
    for (int i = 0; i < a; i++) {
        out[i] = NO_STEP;
        out[a + i] = 0;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t k = 0; k < len; k++) {
        int p, c;
        if (read_move(g, PySequence_Fast_GET_ITEM(seq, k), &p, &c) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        if (k >= NO_STEP) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a witness longer than any board");
            return NULL;
        }
        out[p] = (Py_UCS2)k;
        /* the 3x3 pattern of colour c around p, bit 3 * (dy + 1) + dx + 1 */
        int code = c << 9, col = p % n, row = p / n;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy) continue;
                int cc = col + dx, rr = row + dy;
                if (cc < 0 || cc >= n || rr < 0 || rr >= n) continue;
                if (bb_get(&st[c], rr * n + cc)) code |= 1 << (3 * (dy + 1) + dx + 1);
            }
        out[a + p] = (Py_UCS2)code;
        bb_set(&st[c], p);
    }
    Py_DECREF(seq);
    return PyUnicode_FromKindAndData(PyUnicode_2BYTE_KIND, out, 2 * a);
}

/* --- fills_after_recolouring(size, timeline, point, colour, red, blue) -> bool ------------- */

/* The replay of fills_after_recolouring on a checked timeline: 1, 0, or -1 on error. */
static int fills_core(const Geo *g, PyObject *t, long point, long colour, const bb *red,
                      const bb *blue) {
    int a = g->area;
    int kind = PyUnicode_KIND(t);
    const void *data = PyUnicode_DATA(t);
    int step[MAXAREA], col[MAXAREA], stone[MAXAREA]; /* stone: colour outside the witness */
    int at_step[MAXAREA];                            /* the point filled at each step */
    unsigned char queued[MAXAREA];
    for (int r = 0; r < a; r++) {
        step[r] = (int)PyUnicode_READ(kind, data, r);
        col[r] = (int)PyUnicode_READ(kind, data, a + r) >> 9;
        stone[r] = bb_get(red, r) ? 0 : bb_get(blue, r) ? 1 : -1;
        queued[r] = 0;
    }
    for (int r = 0; r < a; r++)
        if (step[r] != NO_STEP) {
            if (step[r] >= a) {
                PyErr_SetString(PyExc_ValueError, "not a timeline of this board size");
                return -1;
            }
            at_step[step[r]] = r;
        }
    /* state(r, at): the colour on r just before step ``at`` of the new replay (-1: empty);
     * ``col`` holds the switched colours as they are made. */
#define STATE(r, at)                                                                           \
    ((r) == point ? (int)colour                                                                \
     : step[r] != NO_STEP ? (step[r] >= (at) ? -1 : col[r])                                    \
                          : stone[r])
    const int *ring = g->ring[point];
    for (int i = 0; i < g->nring[point]; i++)
        if (step[ring[i]] != NO_STEP) queued[step[ring[i]]] = 1;
    /* The Python twin pops its sorted to-do list from the front and only ever adds later
     * steps, so it takes the queued steps in increasing order: a scan upward is the same. */
    for (int k = 0; k < a; k++) {
        if (!queued[k]) continue;
        int q = at_step[k], c = col[q], want = -1;
        for (int tries = 0; tries < 2 && want < 0; tries++) {
            int w = tries ? 1 - c : c, naked = 0;
            for (int b = 0; b < g->nblocks[q] && !naked; b++) {
                const int *blk = g->blocks[q][b];
                naked = STATE(blk[0], k) == w && STATE(blk[1], k) != w && STATE(blk[2], k) != w;
            }
            if (!naked) want = w;
        }
        if (want < 0) return 0;
        if (want != c) {
            col[q] = want;
            for (int i = 0; i < g->nring[q]; i++) {
                int r = g->ring[q][i];
                if (step[r] != NO_STEP && step[r] > k) queued[step[r]] = 1;
            }
        }
    }
#undef STATE
    return 1;
}

static PyObject *fills_after_recolouring(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "fills_after_recolouring(size, timeline, point, colour, red, blue)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    if (!g) return NULL;
    PyObject *t = args[1];
    int a = g->area;
    if (!PyUnicode_Check(t) || PyUnicode_GET_LENGTH(t) != 2 * a) {
        PyErr_SetString(PyExc_ValueError, "not a timeline of this board size");
        return NULL;
    }
    long point = PyLong_AsLong(args[2]);
    long colour = point == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    if (point < 0 || point >= a) {
        PyErr_SetString(PyExc_ValueError, "point off the board");
        return NULL;
    }
    bb red, blue;
    if (to_bb(args[4], &red) < 0 || to_bb(args[5], &blue) < 0) return NULL;
    int got = fills_core(g, t, point, colour, &red, &blue);
    if (got < 0) return NULL;
    return PyBool_FromLong(got);
}

/* --- repair(size, area, red, blue, hint, base) -> tuple of moves | None -------------------- */

/* One placement attempt of the repair: colour c, then 1 - c; the colour placed or -1. */
static inline int place(const Geo *g, unsigned char *codes, int p, int c) {
    for (int tries = 0; tries < 2; tries++) {
        int colour = tries ? 1 - c : c, own = colour + 1, guard = own | 4, naked = 0;
        for (int b = 0; b < g->nblocks[p] && !naked; b++) {
            const int *blk = g->blocks[p][b];
            naked = codes[blk[0]] == own && !(codes[blk[1]] & guard) && !(codes[blk[2]] & guard);
        }
        if (!naked) {
            codes[p] = (unsigned char)own;
            return colour;
        }
    }
    return -1;
}

static PyObject *repair(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "repair(size, area, red, blue, hint, base)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb area, red, blue;
    if (!g || to_bb(args[1], &area) < 0 || to_bb(args[2], &red) < 0 || to_bb(args[3], &blue) < 0)
        return NULL;
    int a = g->area, nw = g->nw;
    /* Moves: the hint's moves inside the area, in order, then the rest of the area in
     * increasing order with colour 0.  A hint may repeat a point (the Python twin keeps
     * both), so the list can be longer than the area. */
    PyObject *seq = PySequence_Fast(args[4], "a hint must be an iterable of moves");
    if (!seq) return NULL;
    Py_ssize_t hint_len = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t cap = hint_len + a;
    int *mp = PyMem_Malloc(sizeof(int) * 4 * (size_t)(cap > 0 ? cap : 1));
    if (!mp) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int *mc = mp + cap, *op = mp + 2 * cap, *oc = mp + 3 * cap; /* pending; placed */
    int count = 0, placed = 0;
    unsigned char in_hint[MAXAREA];
    memset(in_hint, 0, sizeof in_hint);
    for (Py_ssize_t i = 0; i < hint_len; i++) {
        int p, c;
        if (read_move(g, PySequence_Fast_GET_ITEM(seq, i), &p, &c) < 0) {
            Py_DECREF(seq);
            PyMem_Free(mp);
            return NULL;
        }
        if (bb_get(&area, p)) {
            mp[count] = p;
            mc[count++] = c;
            in_hint[p] = 1;
        }
    }
    Py_DECREF(seq);
    PyObject *result = NULL;
    if (!count) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    for (int p = 0; p < a; p++)
        if (bb_get(&area, p) && !in_hint[p]) {
            mp[count] = p;
            mc[count++] = 0;
        }
    unsigned char codes[MAXAREA];
    for (int p = 0; p < a; p++) codes[p] = bb_get(&red, p) ? 1 : bb_get(&blue, p) ? 2 : 0;
    /* (blue overrides red where both hold a point, as _codes writes blue after red) */
    for (int p = 0; p < a; p++)
        if (bb_get(&blue, p)) codes[p] = 2;
    PyObject *base = args[5];
    if (base != Py_None) {
        PyObject *bs = PySequence_Fast(base, "base must be (area, red, blue)");
        if (!bs) goto done;
        bb hint_area, red0, blue0;
        int bad = PySequence_Fast_GET_SIZE(bs) != 3;
        if (bad) PyErr_SetString(PyExc_ValueError, "base must be (area, red, blue)");
        else
            bad = to_bb(PySequence_Fast_GET_ITEM(bs, 0), &hint_area) < 0 ||
                  to_bb(PySequence_Fast_GET_ITEM(bs, 1), &red0) < 0 ||
                  to_bb(PySequence_Fast_GET_ITEM(bs, 2), &blue0) < 0;
        Py_DECREF(bs);
        if (bad) goto done;
        bb changed, near;
        for (int i = 0; i < W; i++)
            changed.w[i] = (red.w[i] ^ red0.w[i]) | (blue.w[i] ^ blue0.w[i]) |
                           (hint_area.w[i] ^ area.w[i]);
        for (int i = nw; i < W; i++) changed.w[i] = 0;
        memset(&near, 0, sizeof near);
        dilate(g, &near, &changed, 1);
        unsigned char tainted[MAXAREA];
        for (int p = 0; p < a; p++) tainted[p] = (unsigned char)bb_get(&near, p);
        int deferred = 0;
        for (int i = 0; i < count; i++) {
            int p = mp[i], c = mc[i];
            if (!tainted[p]) {
                codes[p] = (unsigned char)(c + 1);
                op[placed] = p;
                oc[placed++] = c;
                continue;
            }
            int colour = place(g, codes, p, c);
            if (colour >= 0) {
                op[placed] = p;
                oc[placed++] = colour;
            } else {
                mp[deferred] = p; /* deferred <= i: the list is compacted in place */
                mc[deferred++] = c;
            }
            if (colour != c) {
                tainted[p] = 1;
                for (int r = 0; r < g->nring[p]; r++) tainted[g->ring[p][r]] = 1;
            }
        }
        if (deferred == count) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        count = deferred;
    }
    while (count) {
        int deferred = 0;
        for (int i = 0; i < count; i++) {
            int p = mp[i], c = mc[i];
            int colour = place(g, codes, p, c);
            if (colour >= 0) {
                op[placed] = p;
                oc[placed++] = colour;
            } else {
                mp[deferred] = p;
                mc[deferred++] = c;
            }
        }
        if (deferred == count) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        count = deferred;
    }
    result = PyTuple_New(placed);
    if (!result) goto done;
    for (int i = 0; i < placed; i++) {
        PyObject *m = move(op[i], oc[i]);
        if (!m) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, i, m);
    }
done:
    PyMem_Free(mp);
    return result;
}

/* --- timeline_witness(size, timeline), pack(witness), unpack(packed) ---------------------- */

static int cmp_u32(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* A move tuple, shared where the point is on a 19x19 board (tuples are immutable). */
static PyObject *any_move(long p, long c) {
    if (p >= 0 && p < MAXAREA && (c == 0 || c == 1)) return move((int)p, (int)c);
    return Py_BuildValue("(ll)", p, c);
}

static PyObject *timeline_witness(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "timeline_witness(size, timeline)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    if (!g) return NULL;
    PyObject *t = args[1];
    int a = g->area;
    if (!PyUnicode_Check(t) || PyUnicode_GET_LENGTH(t) != 2 * a) {
        PyErr_SetString(PyExc_ValueError, "not a timeline of this board size");
        return NULL;
    }
    int kind = PyUnicode_KIND(t);
    const void *data = PyUnicode_DATA(t);
    uint32_t order[MAXAREA]; /* (step, point), sorted as the Python twin sorts its pairs */
    int count = 0;
    for (int p = 0; p < a; p++) {
        uint32_t k = PyUnicode_READ(kind, data, p);
        if (k != NO_STEP) order[count++] = k << 16 | (uint32_t)p;
    }
    qsort(order, (size_t)count, sizeof order[0], cmp_u32);
    PyObject *out = PyTuple_New(count);
    if (!out) return NULL;
    for (int i = 0; i < count; i++) {
        int p = (int)(order[i] & 0xFFFF);
        PyObject *m = any_move(p, (long)(PyUnicode_READ(kind, data, a + p) >> 9));
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, m);
    }
    return out;
}

static PyObject *pack(PyObject *self, PyObject *witness) {
    PyObject *seq = PySequence_Fast(witness, "a witness must be a sequence of moves");
    if (!seq) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    Py_UCS4 *buf = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(len ? len : 1));
    if (!buf) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *m = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "a move must be a pair");
        if (!m) goto done;
        if (PySequence_Fast_GET_SIZE(m) != 2) {
            Py_DECREF(m);
            PyErr_SetString(PyExc_ValueError, "a move must be a (point, colour) pair");
            goto done;
        }
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(m, 0));
        long c = p == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PySequence_Fast_GET_ITEM(m, 1));
        Py_DECREF(m);
        if (PyErr_Occurred()) goto done;
        long code = p << 1 | c;
        if (p < 0 || c < 0 || code > 0x10FFFF) {
            PyErr_SetString(PyExc_ValueError, "a move that packs to no character");
            goto done;
        }
        buf[i] = (Py_UCS4)code;
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, len);
done:
    Py_DECREF(seq);
    PyMem_Free(buf);
    return result;
}

static PyObject *unpack(PyObject *self, PyObject *packed) {
    if (!PyUnicode_Check(packed)) {
        PyErr_SetString(PyExc_TypeError, "a packed witness is a str");
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(packed);
    int kind = PyUnicode_KIND(packed);
    const void *data = PyUnicode_DATA(packed);
    PyObject *out = PyTuple_New(len);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        long o = (long)PyUnicode_READ(kind, data, i);
        PyObject *m = any_move(o >> 1, o & 1);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, m);
    }
    return out;
}

/* --- distance_layers(size, own, opp, edge_a, edge_b), path_points(...) --------------------- */

/* rules.geometry.Grid.flood: like flood_bb, but the seed's bits are always kept. */
static void flood_keep(const Geo *g, bb *region, const bb *within) {
    bb seed = *region, nxt;
    memset(&nxt, 0, sizeof nxt);
    for (;;) {
        dilate(g, &nxt, region, 0);
        for (int i = 0; i < g->nw; i++) nxt.w[i] = (nxt.w[i] & within->w[i]) | seed.w[i];
        if (bb_eq(&nxt, region, g->nw)) return;
        *region = nxt;
    }
}

/* ai.connection.distance_layers into ``layers`` (at most area + 1 of them): their count. */
static int layers_bb(const Geo *g, const bb *own, const bb *opp, const bb *ea, const bb *eb,
                     bb *layers) {
    int count = 0;
    bb empty, reach, own_near, step, t;
    memset(&reach, 0, sizeof reach);
    memset(&own_near, 0, sizeof own_near);
    memset(&t, 0, sizeof t);
    for (int i = 0; i < W; i++) {
        empty.w[i] = g->full.w[i] & ~opp->w[i] & ~own->w[i];
        reach.w[i] = own->w[i] & ea->w[i];
    }
    if (bb_any(&reach, W)) flood_keep(g, &reach, own);
    layers[count++] = reach;
    dilate(g, &own_near, own, 0);
    for (;;) {
        int touches = 0, grows = 0, near = 0;
        for (int i = 0; i < W; i++) touches |= (reach.w[i] & eb->w[i]) != 0;
        if (touches) break;
        dilate(g, &t, &reach, 0);
        for (int i = 0; i < W; i++) {
            step.w[i] = (t.w[i] | ea->w[i]) & empty.w[i] & ~reach.w[i];
            grows |= step.w[i] != 0;
            near |= (step.w[i] & own_near.w[i]) != 0;
        }
        if (!grows) break;
        if (near) {
            bb within;
            for (int i = 0; i < W; i++) {
                reach.w[i] |= step.w[i];
                within.w[i] = reach.w[i] | own->w[i];
            }
            flood_keep(g, &reach, &within);
        } else {
            for (int i = 0; i < W; i++) reach.w[i] |= step.w[i];
        }
        layers[count++] = reach;
    }
    return count;
}

static int read_five(PyObject *const *args, Py_ssize_t nargs, const char *usage, Geo **g,
                     bb *own, bb *opp, bb *ea, bb *eb) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    *g = geo(args[0]);
    if (!*g || to_bb(args[1], own) < 0 || to_bb(args[2], opp) < 0 || to_bb(args[3], ea) < 0 ||
        to_bb(args[4], eb) < 0)
        return -1;
    return 0;
}

static PyObject *distance_layers(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Geo *g;
    bb own, opp, ea, eb, layers[MAXAREA + 2];
    if (read_five(args, nargs, "distance_layers(size, own, opp, edge_a, edge_b)", &g, &own, &opp,
                  &ea, &eb) < 0)
        return NULL;
    int count = layers_bb(g, &own, &opp, &ea, &eb, layers);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = from_bb(&layers[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* ai.connection.shortest_path_points from edge A to edge B: (distance, mask), or None when
 * edge B cannot be reached (the caller says INFINITE). */
static PyObject *path_points(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Geo *g;
    bb own, opp, ea, eb, from_a[MAXAREA + 2], from_b[MAXAREA + 2], on_path;
    if (read_five(args, nargs, "path_points(size, own, opp, edge_a, edge_b)", &g, &own, &opp,
                  &ea, &eb) < 0)
        return NULL;
    int na = layers_bb(g, &own, &opp, &ea, &eb, from_a), touches = 0;
    for (int i = 0; i < W; i++) touches |= (from_a[na - 1].w[i] & eb.w[i]) != 0;
    if (!touches) Py_RETURN_NONE;
    int total = na - 1;
    memset(&on_path, 0, sizeof on_path);
    if (total > 0) {
        int nb = layers_bb(g, &own, &opp, &eb, &ea, from_b);
        for (int k = 1; k <= total; k++) {
            int j = total - k + 1;
            if (j >= nb) continue;
            for (int i = 0; i < W; i++) {
                uint64_t empty = g->full.w[i] & ~(own.w[i] | opp.w[i]);
                uint64_t new_a = from_a[k].w[i] & ~from_a[k - 1].w[i] & empty;
                uint64_t new_b = from_b[j].w[i] & ~from_b[j - 1].w[i] & empty;
                on_path.w[i] |= new_a & new_b;
            }
        }
    }
    PyObject *mask = from_bb(&on_path);
    if (!mask) return NULL;
    return Py_BuildValue("(iN)", total, mask);
}

/* --- naked_mask(size, own, wild) and sweep(size, codes, pending, back) --------------------- */

static PyObject *naked_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "naked_mask(size, own, wild)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb own, wild, out;
    if (!g || to_bb(args[1], &own) < 0 || to_bb(args[2], &wild) < 0) return NULL;
    memset(&out, 0, sizeof out);
    for (int p = 0; p < g->area; p++)
        for (int b = 0; b < g->nblocks[p]; b++) {
            const int *blk = g->blocks[p][b];
            if (bb_get(&own, blk[0]) && !bb_get(&own, blk[1]) && !bb_get(&wild, blk[1]) &&
                !bb_get(&own, blk[2]) && !bb_get(&wild, blk[2])) {
                bb_set(&out, p);
                break;
            }
        }
    return from_bb(&out);
}

/* AreaSolver._sweep: the placements and the points left; ``codes`` (a bytearray of the
 * board) is updated in place, as the Python twin updates it. */
static PyObject *sweep(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "sweep(size, codes, pending, back)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    if (!g) return NULL;
    int size = g->area;
    if (!PyByteArray_Check(args[1]) || PyByteArray_GET_SIZE(args[1]) != size) {
        PyErr_SetString(PyExc_ValueError, "codes must be a bytearray of the board");
        return NULL;
    }
    unsigned char *codes = (unsigned char *)PyByteArray_AS_STRING(args[1]);
    long back = PyLong_AsLong(args[3]);
    if (back == -1 && PyErr_Occurred()) return NULL;
    PyObject *seq = PySequence_Fast(args[2], "pending must be a sequence of points");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    int *pending = PyMem_Malloc(sizeof(int) * 3 * (size_t)(count ? count : 1));
    if (!pending) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int *op = pending + count, *oc = pending + 2 * count;
    PyObject *result = NULL, *out = NULL, *left = NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (p == -1 && PyErr_Occurred()) goto done;
        if (p < 0 || p >= size) {
            PyErr_SetString(PyExc_ValueError, "a point off the board");
            goto done;
        }
        pending[i] = (int)p;
    }
    int placed = 0;
    while (count) {
        int deferred = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            int p = pending[i];
            long ref = p + back;
            int first = ref >= 0 && ref < size && codes[ref] == 2 ? 1 : 0;
            int colour = place(g, codes, p, first);
            if (colour >= 0) {
                op[placed] = p;
                oc[placed++] = colour;
            } else {
                pending[deferred++] = p;
            }
        }
        if (deferred == count) break;
        count = deferred;
    }
    if (!(out = PyList_New(placed)) || !(left = PyList_New(count))) goto done;
    for (int i = 0; i < placed; i++) {
        PyObject *m = move(op[i], oc[i]);
        if (!m) goto done;
        PyList_SET_ITEM(out, i, m);
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLong(pending[i]);
        if (!v) goto done;
        PyList_SET_ITEM(left, i, v);
    }
    result = PyTuple_Pack(2, out, left);
done:
    Py_XDECREF(out);
    Py_XDECREF(left);
    Py_DECREF(seq);
    PyMem_Free(pending);
    return result;
}

/* --- key(size, area, red, blue, wild) ------------------------------------------------------ */

/* AreaSolver.key: the area, then the red, blue and wild stones on its ring, one board's width
 * of bits each, as one int. */
/* The key of ``area`` with the stones ``st`` (red, blue, wild) as an int. */
static PyObject *key_of(const Geo *g, const bb *area, const bb *st) {
    bb ring;
    memset(&ring, 0, sizeof ring);
    dilate(g, &ring, area, 1);
    int a = g->area;
    unsigned char buf[(4 * MAXAREA + 7) / 8 + 1];
    size_t len = (size_t)(4 * a + 7) / 8;
    memset(buf, 0, sizeof buf);
    for (int p = 0; p < a; p++) {
        if (bb_get(area, p)) {
            buf[p >> 3] |= (unsigned char)(1 << (p & 7));
        } else if (bb_get(&ring, p)) {
            for (int s = 0; s < 3; s++)
                if (bb_get(&st[s], p)) {
                    int bit = (s + 1) * a + p;
                    buf[bit >> 3] |= (unsigned char)(1 << (bit & 7));
                }
        }
    }
    return bytes_to_pyint(buf, len);
}

static PyObject *key(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "key(size, area, red, blue, wild)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb area, st[3];
    if (!g || to_bb(args[1], &area) < 0 || to_bb(args[2], &st[0]) < 0 ||
        to_bb(args[3], &st[1]) < 0 || to_bb(args[4], &st[2]) < 0)
        return NULL;
    return key_of(g, &area, st);
}

/* --- quick_verdict(size, point, player, red, blue, timelines) -> bool | None --------------- */

/* NakedDiagonal._point_legal's answer where it needs no Python: False for an occupied point or
 * one forming a naked diagonal; True when every area next to the point has a timeline in the
 * memo ``timelines`` and each still fills after the placement (the shortcut); None otherwise,
 * and then the caller takes its full path from the start.  Reading the memo changes nothing
 * (a hit is all the Python path would have used, with no side effect), so the result and every
 * memo are exactly as after the Python path. */
static PyObject *quick_verdict(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyDict_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "quick_verdict(size, point, player, red, blue, timelines: dict)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    if (!g) return NULL;
    long point = PyLong_AsLong(args[1]);
    long player = point == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (point < 0 || point >= g->area || (player != 0 && player != 1)) {
        PyErr_SetString(PyExc_ValueError, "point off the board or no player");
        return NULL;
    }
    bb st[3];
    if (to_bb(args[3], &st[0]) < 0 || to_bb(args[4], &st[1]) < 0) return NULL;
    memset(&st[2], 0, sizeof st[2]);
    if (bb_get(&st[0], (int)point) || bb_get(&st[1], (int)point)) Py_RETURN_FALSE;
    const bb *own = &st[player];
    for (int b = 0; b < g->nblocks[point]; b++) {
        const int *blk = g->blocks[point][b];
        if (bb_get(own, blk[0]) && !bb_get(own, blk[1]) && !bb_get(own, blk[2])) Py_RETURN_FALSE;
    }
    bb empty, seeds;
    memset(&seeds, 0, sizeof seeds);
    for (int i = 0; i < W; i++) empty.w[i] = g->full.w[i] & ~(st[0].w[i] | st[1].w[i]);
    bb_set(&seeds, (int)point);
    for (int i = 0; i < g->nring[point]; i++) bb_set(&seeds, g->ring[point][i]);
    for (int i = 0; i < W; i++) seeds.w[i] &= empty.w[i];
    for (;;) {
        int i = 0;
        while (i < W && !seeds.w[i]) i++;
        if (i == W) break;
        bb area;
        memset(&area, 0, sizeof area);
        area.w[i] = seeds.w[i] & -seeds.w[i];
        flood_bb(g, &area, &empty, 0);
        for (int j = 0; j < W; j++) seeds.w[j] &= ~area.w[j];
        PyObject *k = key_of(g, &area, st);
        if (!k) return NULL;
        PyObject *t = PyDict_GetItemWithError(args[5], k); /* borrowed */
        Py_DECREF(k);
        if (!t) {
            if (PyErr_Occurred()) return NULL;
            Py_RETURN_NONE; /* a miss: the Python path solves and stores */
        }
        if (t == Py_None) Py_RETURN_NONE; /* an NDE area: the Python path's full check */
        if (!PyUnicode_Check(t) || PyUnicode_GET_LENGTH(t) != 2 * g->area) {
            PyErr_SetString(PyExc_ValueError, "not a timeline of this board size");
            return NULL;
        }
        int got = fills_core(g, t, point, player, &st[0], &st[1]);
        if (got < 0) return NULL;
        if (!got) Py_RETURN_NONE;
    }
    Py_RETURN_TRUE;
}

/* --- reachable(size, area, own, wild) ------------------------------------------------------ */

/* AreaSolver.reachable: the least fixpoint of the points of ``area`` where a stone of colour
 * ``own`` could ever be placed (a like-coloured diagonal neighbour must have a shared point
 * holding, or able to receive, the colour, or a wild one). */
static PyObject *reachable(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "reachable(size, area, own, wild)");
        return NULL;
    }
    Geo *g = geo(args[0]);
    bb area, own, wild, reach;
    if (!g || to_bb(args[1], &area) < 0 || to_bb(args[2], &own) < 0 || to_bb(args[3], &wild) < 0)
        return NULL;
    int points[MAXAREA], count = 0;
    for (int p = 0; p < g->area; p++)
        if (bb_get(&area, p)) points[count++] = p;
    memset(&reach, 0, sizeof reach);
    for (;;) {
        bb nxt;
        memset(&nxt, 0, sizeof nxt);
        for (int i = 0; i < count; i++) {
            int p = points[i], blocked = 0;
            for (int b = 0; b < g->nblocks[p] && !blocked; b++) {
                const int *blk = g->blocks[p][b];
                blocked = bb_get(&own, blk[0]) &&
                          !(bb_get(&own, blk[1]) || bb_get(&reach, blk[1]) || bb_get(&wild, blk[1])) &&
                          !(bb_get(&own, blk[2]) || bb_get(&reach, blk[2]) || bb_get(&wild, blk[2]));
            }
            if (!blocked) bb_set(&nxt, p);
        }
        if (bb_eq(&nxt, &reach, W)) break;
        reach = nxt;
    }
    return from_bb(&reach);
}

/* === module ============================================================================== */

static PyMethodDef methods[] = {
    {"bits", bits, METH_O, "rules.geometry.bits_list: the set bits' indices, lowest first."},
    {"flood", (PyCFunction)(void (*)(void))flood, METH_FASTCALL,
     "rules.nd_area.AreaSolver.flood(seed, within, diagonal) for a board size."},
    {"components", (PyCFunction)(void (*)(void))components, METH_FASTCALL,
     "rules.nd_area.AreaSolver.components(cells, diagonal) for a board size."},
    {"timeline", (PyCFunction)(void (*)(void))timeline, METH_FASTCALL,
     "rules.nd_area.AreaSolver.timeline(red, blue, witness) for a board size."},
    {"fills_after_recolouring", (PyCFunction)(void (*)(void))fills_after_recolouring,
     METH_FASTCALL, "rules.nd_area.AreaSolver.fills_after_recolouring for a board size."},
    {"repair", (PyCFunction)(void (*)(void))repair, METH_FASTCALL,
     "rules.nd_area.AreaSolver._repair(area, red, blue, hint, base) for a board size."},
    {"timeline_witness", (PyCFunction)(void (*)(void))timeline_witness, METH_FASTCALL,
     "rules.nd_area.AreaSolver.timeline_witness(timeline) for a board size."},
    {"pack", pack, METH_O, "rules.nd_area._pack: a witness as a str."},
    {"unpack", unpack, METH_O, "rules.nd_area._unpack: the witness pack packed."},
    {"distance_layers", (PyCFunction)(void (*)(void))distance_layers, METH_FASTCALL,
     "ai.connection.distance_layers(grid(size), own, opp, edge_a, edge_b)."},
    {"path_points", (PyCFunction)(void (*)(void))path_points, METH_FASTCALL,
     "ai.connection.shortest_path_points from edge A to edge B, None if B is out of reach."},
    {"naked_mask", (PyCFunction)(void (*)(void))naked_mask, METH_FASTCALL,
     "rules.nd_area.AreaSolver.naked_mask(own, wild) for a board size."},
    {"sweep", (PyCFunction)(void (*)(void))sweep, METH_FASTCALL,
     "rules.nd_area.AreaSolver._sweep(codes, pending, back) for a board size."},
    {"key", (PyCFunction)(void (*)(void))key, METH_FASTCALL,
     "rules.nd_area.AreaSolver.key(area, red, blue, wild) for a board size."},
    {"reachable", (PyCFunction)(void (*)(void))reachable, METH_FASTCALL,
     "rules.nd_area.AreaSolver.reachable(area, own, wild) for a board size."},
    {"quick_verdict", (PyCFunction)(void (*)(void))quick_verdict, METH_FASTCALL,
     "rules.nakeddiagonal.NakedDiagonal._point_legal where it needs no Python, else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "rules._ndcore",
    "Naked Diagonal's area-check loops, compiled (see rules/_ndcore.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__ndcore(void) { return PyModule_Create(&module); }
