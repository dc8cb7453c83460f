/* The kernels of ai/_fastcore.c on bitboards of W 64-bit words: included once per width
 * (see there), each time with W and SFX set, every name below suffixed by the width. */
#define Classes SFX(Classes)
#define ClearPath SFX(ClearPath)
#define Crosscut SFX(Crosscut)
#define Geo SFX(Geo)
#define Paths SFX(Paths)
#define allowed SFX(allowed)
#define allowed_mask SFX(allowed_mask)
#define position_args SFX(position_args)
#define b_and SFX(b_and)
#define b_andnot SFX(b_andnot)
#define b_any SFX(b_any)
#define b_bit SFX(b_bit)
#define b_clear SFX(b_clear)
#define b_count SFX(b_count)
#define b_eq SFX(b_eq)
#define b_high SFX(b_high)
#define b_list SFX(b_list)
#define b_low SFX(b_low)
#define b_or SFX(b_or)
#define b_set SFX(b_set)
#define b_shl SFX(b_shl)
#define b_shr SFX(b_shr)
#define b_test SFX(b_test)
#define b_zero SFX(b_zero)
#define bb SFX(bb)
#define candidates SFX(candidates)
#define cc_flips SFX(cc_flips)
#define cc_priors SFX(cc_priors)
#define cc_legal_mask SFX(cc_legal_mask)
#define cc_winning SFX(cc_winning)
#define cc_run_distance SFX(cc_run_distance)
#define clearcut SFX(clearcut)
#define cut_legal_mask SFX(cut_legal_mask)
#define clearpath SFX(clearpath)
#define cp_can_finish_after SFX(cp_can_finish_after)
#define cp_chain_legal SFX(cp_chain_legal)
#define cp_classify SFX(cp_classify)
#define cp_derive_odip SFX(cp_derive_odip)
#define cp_derive_oip SFX(cp_derive_oip)
#define cp_legal SFX(cp_legal)
#define cp_legal_mask SFX(cp_legal_mask)
#define crosscut SFX(crosscut)
#define dilate4 SFX(dilate4)
#define dilate8 SFX(dilate8)
#define distance SFX(distance)
#define flood SFX(flood)
#define geo SFX(geo)
#define geos SFX(geos)
#define glyph_mask SFX(glyph_mask)
#define glyphs SFX(glyphs)
#define kth SFX(kth)
#define layers SFX(layers)
#define minefield SFX(minefield)
#define on_path SFX(on_path)
#define ray SFX(ray)
#define reach_add SFX(reach_add)
#define run_through SFX(run_through)
#define shift SFX(shift)
#define surrounded_mask SFX(surrounded_mask)
#define to_bb SFX(to_bb)

typedef struct {
    uint64_t w[W];
} bb;

static inline bb b_zero(void) {
    bb r;
    memset(&r, 0, sizeof r);
    return r;
}
static inline bb b_and(bb a, bb b) {
    for (int i = 0; i < W; i++) a.w[i] &= b.w[i];
    return a;
}
static inline bb b_or(bb a, bb b) {
    for (int i = 0; i < W; i++) a.w[i] |= b.w[i];
    return a;
}
/* a & ~b */
static inline bb b_andnot(bb a, bb b) {
    for (int i = 0; i < W; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline int b_any(bb a) {
    uint64_t x = 0;
    for (int i = 0; i < W; i++) x |= a.w[i];
    return x != 0;
}
static inline int b_eq(bb a, bb b) { return memcmp(&a, &b, sizeof a) == 0; }
static inline int b_test(bb a, int p) { return (int)((a.w[p >> 6] >> (p & 63)) & 1); }
static inline bb b_bit(int p) {
    bb r = b_zero();
    r.w[p >> 6] = (uint64_t)1 << (p & 63);
    return r;
}
static inline void b_set(bb *a, int p) { a->w[p >> 6] |= (uint64_t)1 << (p & 63); }
static inline void b_clear(bb *a, int p) { a->w[p >> 6] &= ~((uint64_t)1 << (p & 63)); }
static inline int b_count(bb a) {
    int c = 0;
    for (int i = 0; i < W; i++) c += __builtin_popcountll(a.w[i]);
    return c;
}
/* The lowest set bit's index, -1 for an empty board. */
static inline int b_low(bb a) {
    for (int i = 0; i < W; i++)
        if (a.w[i]) return i * 64 + __builtin_ctzll(a.w[i]);
    return -1;
}
/* The highest set bit's index (int.bit_length() - 1), -1 for an empty board. */
static inline int b_high(bb a) {
    for (int i = W - 1; i >= 0; i--)
        if (a.w[i]) return i * 64 + 63 - __builtin_clzll(a.w[i]);
    return -1;
}
/* a >> k (towards bit 0), 0 <= k < 64 * W. */
static inline bb b_shr(bb a, int k) {
    bb r;
    int ws = k >> 6, bs = k & 63;
    for (int i = 0; i < W; i++) {
        int s = i + ws;
        uint64_t lo = s < W ? a.w[s] : 0, hi = s + 1 < W ? a.w[s + 1] : 0;
        r.w[i] = bs ? (lo >> bs) | (hi << (64 - bs)) : lo;
    }
    return r;
}
/* a << k, bits past the last word dropped (every caller masks to the board anyway). */
static inline bb b_shl(bb a, int k) {
    bb r;
    int ws = k >> 6, bs = k & 63;
    for (int i = 0; i < W; i++) {
        int s = i - ws;
        uint64_t hi = s >= 0 ? a.w[s] : 0, lo = s - 1 >= 0 ? a.w[s - 1] : 0;
        r.w[i] = bs ? (hi << bs) | (lo >> (64 - bs)) : hi;
    }
    return r;
}
/* The set bits' indices, lowest first (rules.geometry.bits_list); returns the count. */
static inline int b_list(bb a, int *out) {
    int c = 0;
    for (int i = 0; i < W; i++) {
        uint64_t x = a.w[i];
        while (x) {
            out[c++] = i * 64 + __builtin_ctzll(x);
            x &= x - 1;
        }
    }
    return c;
}

/* A non-negative Python int (a bitboard of at most 361 bits) as a bb. */
static int to_bb(PyObject *v, bb *out) { return pyint_to_words(v, out->w, W); }

/* --- One board size's tables (rules.geometry.Grid) ------------------------------------- */

typedef struct {
    int n, area;
    bb full, not_left, not_right, left, right, top, bottom, perimeter, interior;
    bb orth_bits[MAXAREA], ring_bits[MAXAREA];
    int ring[MAXAREA][8], ring_count[MAXAREA];
    /* squares: (diagonal, horizontal, vertical) neighbours, in DIAGONAL's order */
    int squares[MAXAREA][4][3], square_count[MAXAREA];
    bb valid[9][9]; /* Grid.shift's mask for (dx, dy) in -4..4 */
} Geo;

static Geo *geos[MAXN + 1];

static const Geo *geo(int n) {
    if (n < 2 || n > MAXN) {
        PyErr_SetString(PyExc_ValueError, "board size out of range");
        return NULL;
    }
    if (geos[n]) return geos[n];
    Geo *g = PyMem_Calloc(1, sizeof(Geo));
    if (!g) {
        PyErr_NoMemory();
        return NULL;
    }
    g->n = n;
    g->area = n * n;
    static const int ring_steps[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                         {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static const int diagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int p = 0; p < g->area; p++) {
        int c = p % n, r = p / n;
        b_set(&g->full, p);
        if (c == 0) b_set(&g->left, p);
        if (c == n - 1) b_set(&g->right, p);
        if (r == 0) b_set(&g->bottom, p);
        if (r == n - 1) b_set(&g->top, p);
        for (int k = 0; k < 8; k++) {
            int x = c + ring_steps[k][0], y = r + ring_steps[k][1];
            if (x < 0 || x >= n || y < 0 || y >= n) continue;
            if (k < 4) b_set(&g->orth_bits[p], y * n + x);
            b_set(&g->ring_bits[p], y * n + x);
        }
        g->ring_count[p] = b_list(g->ring_bits[p], g->ring[p]);
        int s = 0;
        for (int k = 0; k < 4; k++) {
            int dx = diagonal[k][0], dy = diagonal[k][1];
            if (c + dx < 0 || c + dx >= n || r + dy < 0 || r + dy >= n) continue;
            g->squares[p][s][0] = p + dx + dy * n;
            g->squares[p][s][1] = p + dx;
            g->squares[p][s][2] = p + dy * n;
            s++;
        }
        g->square_count[p] = s;
        for (int dx = -4; dx <= 4; dx++)
            for (int dy = -4; dy <= 4; dy++)
                if (c + dx >= 0 && c + dx < n && r + dy >= 0 && r + dy < n)
                    b_set(&g->valid[dx + 4][dy + 4], p);
    }
    g->not_left = b_andnot(g->full, g->left);
    g->not_right = b_andnot(g->full, g->right);
    g->perimeter = b_or(b_or(g->left, g->right), b_or(g->top, g->bottom));
    g->interior = b_andnot(g->full, g->perimeter);
    geos[n] = g;
    return g;
}

/* m with its orthogonal neighbours (the step of Grid.flood). */
static inline bb dilate4(const Geo *g, bb m) {
    bb r = b_or(m, b_and(b_shr(m, 1), g->not_right));
    r = b_or(r, b_and(b_shl(m, 1), g->not_left));
    r = b_or(r, b_shr(m, g->n));
    return b_or(r, b_and(b_shl(m, g->n), g->full));
}

/* m with its eight neighbours. */
static inline bb dilate8(const Geo *g, bb m) {
    bb h = b_or(m, b_and(b_shr(m, 1), g->not_right));
    h = b_or(h, b_and(b_shl(m, 1), g->not_left));
    return b_or(b_or(h, b_shr(h, g->n)), b_and(b_shl(h, g->n), g->full));
}

/* Grid.flood: the points of ``within`` connected to ``seed`` (``seed`` always included). */
static inline bb flood(const Geo *g, bb seed, bb within, int diagonal) {
    bb region = seed;
    for (;;) {
        bb grown = diagonal ? dilate8(g, region) : dilate4(g, region);
        bb nxt = b_or(b_and(grown, within), seed);
        if (b_eq(nxt, region)) return region;
        region = nxt;
    }
}

/* EdgeReach.add for one reach: a placed stone ``p`` joins it (with what it connects). */
static inline int reach_add(const Geo *g, bb *reach, bb own, bb edge, int p, int diagonal) {
    bb bit = b_bit(p), around = diagonal ? g->ring_bits[p] : g->orth_bits[p];
    if (!(b_test(edge, p) || b_any(b_and(around, *reach)))) return 0;
    bb rest = b_andnot(own, *reach);
    *reach = b_or(*reach, b_any(b_and(around, rest)) ? flood(g, bit, rest, diagonal) : bit);
    return 1;
}

/* === Clear Path (ai/fast/clearpath.py) ================================================== */

typedef struct {
    const Geo *g;
    bb stones[2], oip[2][2], odip[2][2], edge[2][2];
    bb joins[2], touches[2], crosses[2];
    int linked[2];
} ClearPath;

static inline bb surrounded_mask(const Geo *g, bb occupied) {
    int n = g->n;
    bb east = b_or(b_and(b_shr(occupied, 1), g->not_right), g->right);
    bb west = b_or(b_and(b_shl(occupied, 1), g->not_left), g->left);
    bb north = b_or(b_shr(occupied, n), g->top);
    bb south = b_or(b_and(b_shl(occupied, n), g->full), g->bottom);
    bb a = b_and(b_and(east, west), b_or(north, south));
    bb b = b_and(b_and(north, south), b_or(east, west));
    return b_and(b_or(a, b), g->full);
}

static void cp_derive_oip(ClearPath *s, int player) {
    const Geo *g = s->g;
    s->joins[player] = b_and(b_or(dilate4(g, s->oip[player][0]), s->edge[player][0]),
                             b_or(dilate4(g, s->oip[player][1]), s->edge[player][1]));
}

static void cp_derive_odip(ClearPath *s, int player) {
    const Geo *g = s->g;
    bb da = s->odip[player][0], db = s->odip[player][1];
    bb near_a = b_or(dilate8(g, da), s->edge[player][0]);
    bb near_b = b_or(dilate8(g, db), s->edge[player][1]);
    s->touches[player] = b_or(near_a, near_b);
    s->crosses[player] = b_and(near_a, near_b);
    s->linked[player] = b_any(b_and(da, db));
}

typedef struct {
    bb wins, finals, chained, empty, touching;
} Classes;

static Classes cp_classify(const ClearPath *s, int player) {
    const Geo *g = s->g;
    Classes k;
    bb occupied = b_or(s->stones[0], s->stones[1]);
    bb empty = b_andnot(g->full, occupied);
    k.wins = b_and(empty, s->joins[player]);
    bb surrounded = b_and(surrounded_mask(g, occupied), empty);
    if (s->linked[player])
        k.finals = b_zero();
    else
        k.finals = b_andnot(b_andnot(b_andnot(empty, s->crosses[player]), surrounded), k.wins);
    k.chained = b_andnot(surrounded, k.wins);
    k.empty = empty;
    k.touching = s->touches[player];
    return k;
}

/* ClearPath._can_finish_after */
static int cp_can_finish_after(const ClearPath *s, int point, int player) {
    const Geo *g = s->g;
    bb bit = b_bit(point);
    bb own = b_or(s->stones[player], bit), opp = s->stones[1 - player];
    bb edge_a = s->edge[player][0], edge_b = s->edge[player][1];
    bb empty = b_andnot(g->full, b_or(own, opp));
    bb odip_a = s->odip[player][0], odip_b = s->odip[player][1];
    reach_add(g, &odip_a, own, edge_a, point, 1);
    reach_add(g, &odip_b, own, edge_b, point, 1);
    if (!b_any(b_and(odip_a, odip_b))) {
        bb creating =
            b_and(b_or(dilate8(g, odip_a), edge_a), b_or(dilate8(g, odip_b), edge_b));
        bb open = b_andnot(b_andnot(empty, surrounded_mask(g, b_or(own, opp))), creating);
        if (b_any(open)) return 1;
    }
    for (;;) {
        bb occupied = b_or(own, opp);
        bb add = b_andnot(surrounded_mask(g, occupied), occupied);
        if (!b_any(add)) break;
        own = b_or(own, add);
    }
    empty = b_andnot(g->full, b_or(own, opp));
    bb oip_a = flood(g, b_or(s->oip[player][0], b_and(own, edge_a)), own, 0);
    if (b_any(b_and(oip_a, edge_b))) return 1;
    bb oip_b = flood(g, b_or(s->oip[player][1], b_and(own, edge_b)), own, 0);
    return b_any(b_and(b_and(empty, b_or(dilate4(g, oip_a), edge_a)),
                       b_or(dilate4(g, oip_b), edge_b)));
}

/* ClearPath._chain_legal */
static inline int cp_chain_legal(const ClearPath *s, int p, int player, bb finals, bb touching) {
    if (!b_test(touching, p)) {
        bb keep = b_or(b_bit(p), s->g->orth_bits[p]);
        if (b_any(b_andnot(finals, keep))) return 1;
    }
    return cp_can_finish_after(s, p, player);
}

/* QuickTurns.point_is_legal for the mover without a known mask. */
static inline int cp_legal(const ClearPath *s, int p, int turn, const Classes *k, bb sure) {
    if (b_test(sure, p)) return 1;
    return b_test(k->chained, p) && cp_chain_legal(s, p, turn, k->finals, k->touching);
}

/* ClearPath._legal_mask(turn) from the state the playout reads: the winning points and safe
 * final placements, and each surrounded point after which the turn can still end. */
static PyObject *cp_legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* n, stones (2), oip (4), odip (4), turn */
    int n, turn;
    ClearPath s;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "clearpath_legal(n, stones (2), oip (4), odip (4), turn)");
        return NULL;
    }
    if (int_arg(args[0], &n) < 0 || !(s.g = geo(n))) return NULL;
    const Geo *g = s.g;
    for (int i = 0; i < 2; i++) {
        if (to_bb(args[1 + i], &s.stones[i]) < 0) return NULL;
        for (int j = 0; j < 2; j++)
            if (to_bb(args[3 + 2 * i + j], &s.oip[i][j]) < 0 ||
                to_bb(args[7 + 2 * i + j], &s.odip[i][j]) < 0)
                return NULL;
    }
    if (int_arg(args[11], &turn) < 0) return NULL;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "turn must be 0 or 1");
        return NULL;
    }
    s.edge[0][0] = g->bottom;
    s.edge[0][1] = g->top;
    s.edge[1][0] = g->left;
    s.edge[1][1] = g->right;
    cp_derive_oip(&s, turn);
    cp_derive_odip(&s, turn);
    Classes k = cp_classify(&s, turn);
    bb legal = b_or(k.wins, k.finals);
    int points[MAXAREA], np = b_list(k.chained, points);
    for (int i = 0; i < np; i++)
        if (cp_chain_legal(&s, points[i], turn, k.finals, k.touching)) b_set(&legal, points[i]);
    return words_to_pyint(legal.w, W);
}

static PyObject *clearpath(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* ctx..., n, stones (2), oip (4), odip (4), turn, turn_number, known, last, near, stop */
    if (nargs != CTX_ARGS + 17) {
        PyErr_SetString(PyExc_TypeError, "clearpath: wrong number of arguments");
        return NULL;
    }
    Ctx c;
    if (ctx_args(args, &c) < 0) return NULL;
    args += CTX_ARGS;
    int n, turn, turn_number, last, stop, has_known = args[13] != Py_None;
    ClearPath s;
    bb known = b_zero();
    if (int_arg(args[0], &n) < 0 || !(s.g = geo(n))) return NULL;
    const Geo *g = s.g;
    for (int i = 0; i < 2; i++) {
        if (to_bb(args[1 + i], &s.stones[i]) < 0) return NULL;
        for (int j = 0; j < 2; j++)
            if (to_bb(args[3 + 2 * i + j], &s.oip[i][j]) < 0 ||
                to_bb(args[7 + 2 * i + j], &s.odip[i][j]) < 0)
                return NULL;
    }
    if (int_arg(args[11], &turn) < 0 || int_arg(args[12], &turn_number) < 0 ||
        (has_known && to_bb(args[13], &known) < 0) || opt_int_arg(args[14], &last) < 0 ||
        int_arg(args[16], &stop) < 0)
        return NULL;
    double near = -1.0;
    if (args[15] != Py_None) {
        near = PyFloat_AsDouble(args[15]);
        if (near == -1.0 && PyErr_Occurred()) return NULL;
    }
    s.edge[0][0] = g->bottom;
    s.edge[0][1] = g->top;
    s.edge[1][0] = g->left;
    s.edge[1][1] = g->right;
    for (int player = 0; player < 2; player++) {
        cp_derive_oip(&s, player);
        cp_derive_odip(&s, player);
    }
    int empties[MAXAREA], ne = b_list(b_andnot(g->full, b_or(s.stones[0], s.stones[1])), empties);
    int pool[MAXAREA], np;
    int moves = 0, k;
    Classes cl = cp_classify(&s, turn);
    for (;;) {
        if ((k = late(&c)) != 0) {
            if (k < 0) return NULL;
            Py_RETURN_NONE;
        }
        if (moves == stop) return resume(moves, last);
        moves++;
        bb sure = b_or(cl.wins, cl.finals);
        int point = -1, i;
        double r;
        /* Playout.point: the NearLast rule, tried with its chance */
        if (near >= 0 && last >= 0) {
            if (draw(&c, &r) < 0) return NULL;
            if (r < near) {
                np = g->ring_count[last];
                memcpy(pool, g->ring[last], (size_t)np * sizeof(int));
                bb maybe = has_known ? known : b_or(sure, cl.chained);
                while (np) {
                    if (draw_index(&c, np, &i) < 0) return NULL;
                    int p = pool[i];
                    if (b_test(maybe, p) &&
                        (has_known || b_test(sure, p) ||
                         cp_chain_legal(&s, p, turn, cl.finals, cl.touching))) {
                        point = p;
                        break;
                    }
                    pool[i] = pool[--np];
                }
            }
        }
        /* else ai.moves.random_point (QuickTurns.sample_legal_point) */
        if (point < 0) {
            if (has_known) {
                np = b_list(known, pool);
                if (!np) return resume(moves - 1, last); /* only a swap: the engine's */
                if (draw_index(&c, np, &i) < 0) return NULL;
                point = pool[i];
            } else {
                bb off = b_andnot(cl.empty, b_or(sure, cl.chained));
                int count = ne - b_count(off);
                if (draw_index(&c, count, &i) < 0) return NULL;
                int j = i;
                while (b_any(off)) {
                    int e = b_low(off);
                    if (lower_bound(empties, ne, e) > j) break;
                    j++;
                    b_clear(&off, e);
                }
                point = empties[j];
                if (b_test(cl.chained, point) && !cp_legal(&s, point, turn, &cl, sure)) {
                    np = b_list(b_or(sure, cl.chained), pool);
                    for (;;) {
                        pool[i] = pool[--np];
                        if (draw_index(&c, np, &i) < 0) return NULL;
                        point = pool[i];
                        if (cp_legal(&s, point, turn, &cl, sure)) break;
                    }
                }
            }
        }
        has_known = 0;
        if (record(&c, point, turn) < 0) return NULL;
        /* place, as ClearPath._place and Game._play_point */
        int again = b_test(cl.chained, point);
        bb own = b_or(s.stones[turn], b_bit(point));
        s.stones[turn] = own;
        sorted_remove(empties, &ne, point);
        int grew = reach_add(g, &s.oip[turn][0], own, s.edge[turn][0], point, 0);
        grew |= reach_add(g, &s.oip[turn][1], own, s.edge[turn][1], point, 0);
        if (b_any(b_and(s.oip[turn][0], s.oip[turn][1]))) return PyLong_FromLong(turn);
        if (grew) cp_derive_oip(&s, turn);
        grew = reach_add(g, &s.odip[turn][0], own, s.edge[turn][0], point, 1);
        grew |= reach_add(g, &s.odip[turn][1], own, s.edge[turn][1], point, 1);
        if (grew) cp_derive_odip(&s, turn);
        last = point;
        if (again) {
            cl = cp_classify(&s, turn);
            continue;
        }
        /* the skip rule, as QuickTurns._pass_turn: the opponent has a sure point */
        turn_number++;
        cl = cp_classify(&s, 1 - turn);
        if (b_any(b_or(cl.wins, cl.finals))) {
            turn = 1 - turn;
            continue;
        }
        /* else the opponent's whole mask; without one the engine plays the skip */
        if (turn_number == 2) return resume(moves, last);
        known = b_zero();
        np = b_list(cl.chained, pool);
        for (int q = 0; q < np; q++)
            if (cp_chain_legal(&s, pool[q], 1 - turn, cl.finals, cl.touching))
                b_set(&known, pool[q]);
        if (!b_any(known)) return resume(moves, last);
        has_known = 1;
        turn = 1 - turn;
    }
}

static inline bb shift(const Geo *g, bb m, int dx, int dy) {
    int off = dx + dy * g->n;
    bb moved = off >= 0 ? b_shr(m, off) : b_shl(m, -off);
    return b_and(moved, g->valid[dx + 4][dy + 4]);
}

/* rules.minefield.glyph_mask */
static bb glyph_mask(const Geo *g, bb own, bb opp, bb empty) {
    bb boards[3] = {own, opp, empty}, found = b_zero();
    for (int t = 0; t < glyph_terms; t++) {
        bb acc = empty;
        int f;
        for (f = 0; f < term_size[t]; f++) {
            const int *x = term_factor[t][f];
            acc = b_and(acc, shift(g, boards[x[0]], x[1], x[2]));
            if (!b_any(acc)) break;
        }
        if (f == term_size[t]) found = b_or(found, acc);
    }
    return found;
}

/* ai.connection.distance_layers: the layers, returns their count. */
static int layers(const Geo *g, bb own, bb opp, bb ea, bb eb, bb *found) {
    bb empty = b_andnot(b_andnot(g->full, opp), own);
    bb own_near = dilate4(g, own);
    bb seed = b_and(own, ea);
    bb reach = b_any(seed) ? flood(g, seed, own, 0) : b_zero();
    int count = 0;
    found[count++] = reach;
    while (!b_any(b_and(reach, eb))) {
        bb step = b_andnot(b_and(b_or(dilate4(g, reach), ea), empty), reach);
        if (!b_any(step)) break;
        if (b_any(b_and(step, own_near)))
            reach = flood(g, b_or(reach, step), b_or(b_or(reach, step), own), 0);
        else
            reach = b_or(reach, step);
        found[count++] = reach;
    }
    return count;
}

typedef struct {
    const Geo *g;
    bb edge[2][2];
    bb layer_a[MAXAREA + 2], layer_b[MAXAREA + 2];
} Paths;

/* ai.connection.path_distance */
static int distance(Paths *P, bb own, bb closed, int player) {
    bb ea = P->edge[player][0], eb = P->edge[player][1];
    int count = layers(P->g, own, closed, ea, eb, P->layer_a);
    return b_any(b_and(P->layer_a[count - 1], eb)) ? count - 1 : INFINITE;
}

/* ai.connection.shortest_path_points' mask */
static bb on_path(Paths *P, bb own, bb closed, int player) {
    const Geo *g = P->g;
    bb ea = P->edge[player][0], eb = P->edge[player][1];
    bb *from_a = P->layer_a, *from_b = P->layer_b;
    int count_a = layers(g, own, closed, ea, eb, from_a);
    if (!b_any(b_and(from_a[count_a - 1], eb))) return b_zero();
    int total = count_a - 1;
    if (total == 0) return b_zero();
    int count_b = layers(g, own, closed, eb, ea, from_b);
    bb empty = b_andnot(g->full, b_or(own, closed)), found = b_zero();
    for (int k = 1; k <= total; k++) {
        int j = total - k + 1;
        if (j < count_b) {
            bb x = b_and(b_andnot(from_a[k], from_a[k - 1]), empty);
            found = b_or(found, b_and(x, b_andnot(from_b[j], from_b[j - 1])));
        }
    }
    return found;
}

static PyObject *minefield(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* ctx..., n, stones (2), reach (4), turn, last, on_paths, path_bars, verdict_bars, stop */
    if (nargs != CTX_ARGS + 13) {
        PyErr_SetString(PyExc_TypeError, "minefield: wrong number of arguments");
        return NULL;
    }
    if (glyph_terms < 0) {
        PyErr_SetString(PyExc_RuntimeError, "minefield: glyph terms not set");
        return NULL;
    }
    Ctx c;
    if (ctx_args(args, &c) < 0) return NULL;
    args += CTX_ARGS;
    int n, turn, last, path_bars, verdict_bars, stop;
    bb stones[2], reach[2][2];
    const Geo *g;
    if (int_arg(args[0], &n) < 0 || !(g = geo(n))) return NULL;
    for (int i = 0; i < 2; i++) {
        if (to_bb(args[1 + i], &stones[i]) < 0) return NULL;
        for (int j = 0; j < 2; j++)
            if (to_bb(args[3 + 2 * i + j], &reach[i][j]) < 0) return NULL;
    }
    if (int_arg(args[7], &turn) < 0 || opt_int_arg(args[8], &last) < 0 ||
        int_arg(args[10], &path_bars) < 0 || int_arg(args[11], &verdict_bars) < 0 ||
        int_arg(args[12], &stop) < 0)
        return NULL;
    double on_paths = -1.0;
    if (args[9] != Py_None) {
        on_paths = PyFloat_AsDouble(args[9]);
        if (on_paths == -1.0 && PyErr_Occurred()) return NULL;
    }
    Paths *P = PyMem_Malloc(sizeof(Paths));
    if (!P) return PyErr_NoMemory();
    P->g = g;
    P->edge[0][0] = g->bottom;
    P->edge[0][1] = g->top;
    P->edge[1][0] = g->left;
    P->edge[1][1] = g->right;
    PyObject *result = NULL;
    int pool[MAXAREA], np, i, k, moves = 0;
    double r;
    bb empty = b_andnot(g->full, b_or(stones[0], stones[1]));
    bb glyphs[2] = {glyph_mask(g, stones[0], stones[1], empty),
                    glyph_mask(g, stones[1], stones[0], empty)};
    bb legal = b_andnot(empty, glyphs[turn]);
    for (;;) {
        if ((k = late(&c)) != 0) {
            if (k > 0) result = Py_NewRef(Py_None);
            goto done;
        }
        if (moves == stop) {
            /* Playout.verdict: ai.connection.distance_leader */
            int d0, d1;
            if (verdict_bars) {
                d0 = distance(P, stones[0], b_or(stones[1], glyphs[0]), 0);
                d1 = distance(P, stones[1], b_or(stones[0], glyphs[1]), 1);
            } else {
                d0 = distance(P, stones[0], stones[1], 0);
                d1 = distance(P, stones[1], stones[0], 1);
            }
            result = PyLong_FromLong(d0 != d1 ? (d0 < d1 ? 0 : 1) : turn);
            goto done;
        }
        moves++;
        if (!b_any(legal)) { /* only a swap: the engine's */
            result = resume(moves - 1, last);
            goto done;
        }
        int point = -1;
        /* Playout.point: the OnPaths rule, tried with its chance */
        if (on_paths >= 0) {
            if (draw(&c, &r) < 0) goto done;
            if (r < on_paths) {
                bb near;
                if (path_bars)
                    near = b_or(on_path(P, stones[0], b_or(stones[1], glyphs[0]), 0),
                                on_path(P, stones[1], b_or(stones[0], glyphs[1]), 1));
                else
                    near = b_or(on_path(P, stones[0], stones[1], 0),
                                on_path(P, stones[1], stones[0], 1));
                np = b_list(b_and(legal, near), pool);
                if (np) {
                    if (draw_index(&c, np, &i) < 0) goto done;
                    point = pool[i];
                }
            }
        }
        /* else ai.moves.random_point */
        if (point < 0) {
            np = b_list(legal, pool);
            if (draw_index(&c, np, &i) < 0) goto done;
            point = pool[i];
        }
        if (record(&c, point, turn) < 0) goto done;
        /* place, as Minefield._place */
        bb own = b_or(stones[turn], b_bit(point));
        stones[turn] = own;
        reach_add(g, &reach[turn][0], own, P->edge[turn][0], point, 0);
        reach_add(g, &reach[turn][1], own, P->edge[turn][1], point, 0);
        if (b_any(b_and(reach[turn][0], reach[turn][1]))) {
            result = PyLong_FromLong(turn);
            goto done;
        }
        last = point;
        /* the skip rule (Game._pass_turn): the opponent's whole legal mask */
        b_clear(&empty, point);
        glyphs[0] = glyph_mask(g, stones[0], stones[1], empty);
        glyphs[1] = glyph_mask(g, stones[1], stones[0], empty);
        legal = b_andnot(empty, glyphs[1 - turn]);
        if (!b_any(legal)) {
            result = resume(moves, last);
            goto done;
        }
        turn = 1 - turn;
    }
done:
    PyMem_Free(P);
    return result;
}

/* glyph_mask for both sides, for the tests that compare it with rules.minefield's. */
static PyObject *glyphs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int n;
    bb a, b, e;
    const Geo *g;
    if (nargs != 4 || int_arg(args[0], &n) < 0 || !(g = geo(n)) || to_bb(args[1], &a) < 0 ||
        to_bb(args[2], &b) < 0 || to_bb(args[3], &e) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "glyphs(n, a, b, empty)");
        return NULL;
    }
    if (glyph_terms < 0) {
        PyErr_SetString(PyExc_RuntimeError, "glyph terms not set");
        return NULL;
    }
    bb found[2] = {glyph_mask(g, a, b, e), glyph_mask(g, b, a, e)};
    PyObject *out[2];
    for (int s = 0; s < 2; s++) {
        out[s] = words_to_pyint(found[s].w, W);
        if (!out[s]) {
            if (s) Py_DECREF(out[0]);
            return NULL;
        }
    }
    PyObject *t = PyTuple_Pack(2, out[0], out[1]);
    Py_DECREF(out[0]);
    Py_DECREF(out[1]);
    return t;
}

/* === Crosscut (ai/fast/crosscut.py) ===================================================== */

typedef struct {
    const Geo *g;
    int inner[MAXAREA], ninner; /* the empty interior points, sorted */
} Crosscut;

/* rays(size): the points beyond p east, west, north and south, nearest first. */
static inline int ray(const Geo *g, int p, int dir, int *step) {
    int n = g->n, c = p % n, r = p / n;
    switch (dir) {
    case 0: *step = 1; return n - 1 - c;
    case 1: *step = -1; return c;
    case 2: *step = n; return n - 1 - r;
    default: *step = -n; return r;
    }
}

/* The longer of the row and column runs of ``stones`` through ``p``. */
static int run_through(const Geo *g, bb stones, int p) {
    int best = 0;
    for (int a = 0; a < 4; a += 2) {
        int length = 1;
        for (int d = a; d < a + 2; d++) {
            int step, count = ray(g, p, d, &step);
            for (int k = 1; k <= count && b_test(stones, p + k * step); k++) length++;
        }
        if (length > best) best = length;
    }
    return best;
}

/* Crosscut.flips: the discs a placement flips, into ``flanked``; returns their count. */
static int cc_flips(const Geo *g, int point, bb own, bb opp, int *flanked) {
    int count = 0;
    if (!b_any(b_and(g->orth_bits[point], opp))) return 0;
    for (int d = 0; d < 4; d++) {
        int step, end = ray(g, point, d, &step);
        /* rules.crosscut.flanked_segments: enemy discs from the point on, then the mover's */
        if (end && b_test(opp, point + step)) {
            int k = 1;
            while (k < end && b_test(opp, point + (k + 1) * step)) k++;
            if (k < end && b_test(own, point + (k + 1) * step))
                for (int i = 1; i <= k; i++) flanked[count++] = point + i * step;
        }
    }
    if (!count) return 0;
    bb bits = b_zero();
    for (int i = 0; i < count; i++) b_set(&bits, flanked[i]);
    bb after = b_or(own, bits);
    int created = 0, cut = 0;
    if (!b_test(g->perimeter, point)) {
        b_set(&after, point);
        created = run_through(g, after, point);
    }
    for (int i = 0; i < count; i++) {
        int x = run_through(g, after, flanked[i]);
        if (x > created) created = x;
        x = run_through(g, opp, flanked[i]);
        if (x > cut) cut = x;
    }
    return created > cut ? count : 0;
}

/* The i-th point of the sorted union of ``inner`` and the points of ``edge``. */
static int kth(const Crosscut *s, int i, bb edge) {
    int skipped = 0, end = s->ninner;
    const int *inner = s->inner;
    while (b_any(edge)) {
        int e = b_low(edge);
        int j = i - skipped;
        if (j < end && inner[j] < e) return inner[j];
        if (j <= end && (j == 0 || inner[j - 1] < e)) return e;
        skipped++;
        b_clear(&edge, e);
    }
    return inner[i - skipped];
}

static PyObject *crosscut(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* ctx..., n, stones (2), turn, known, last, stop */
    if (nargs != CTX_ARGS + 7) {
        PyErr_SetString(PyExc_TypeError, "crosscut: wrong number of arguments");
        return NULL;
    }
    Ctx c;
    if (ctx_args(args, &c) < 0) return NULL;
    args += CTX_ARGS;
    int n, turn, last, stop, has_known = args[4] != Py_None;
    bb stones[2], known = b_zero();
    Crosscut s;
    if (int_arg(args[0], &n) < 0 || !(s.g = geo(n))) return NULL;
    const Geo *g = s.g;
    if (to_bb(args[1], &stones[0]) < 0 || to_bb(args[2], &stones[1]) < 0 ||
        int_arg(args[3], &turn) < 0 || (has_known && to_bb(args[4], &known) < 0) ||
        opt_int_arg(args[5], &last) < 0 || int_arg(args[6], &stop) < 0)
        return NULL;
    s.ninner = b_list(b_andnot(g->interior, b_or(stones[0], stones[1])), s.inner);
    if (!has_known && !s.ninner) {
        PyErr_SetString(PyExc_ValueError, "crosscut: no empty interior point");
        return NULL;
    }
    int pool[MAXAREA], flipped[4 * MAXN], moved[MAXAREA], has_moved[MAXAREA];
    int moves = 0, k, i, nf;
    for (;;) {
        if ((k = late(&c)) != 0) {
            if (k < 0) return NULL;
            Py_RETURN_NONE;
        }
        if (moves == stop) return resume(moves, last);
        moves++;
        bb own = stones[turn], opp = stones[1 - turn];
        int point;
        /* draw a legal point as QuickTurns.sample_legal_point does */
        if (has_known) {
            int np = b_list(known, pool);
            has_known = 0;
            if (!np) return resume(moves - 1, last);
            if (draw_index(&c, np, &i) < 0) return NULL;
            point = pool[i];
            nf = cc_flips(g, point, own, opp, flipped);
        } else {
            bb edge = b_and(dilate4(g, opp), g->perimeter);
            int size = s.ninner + b_count(edge);
            if (draw_index(&c, size, &i) < 0) return NULL;
            point = kth(&s, i, edge);
            nf = b_any(b_and(g->orth_bits[point], opp)) ? cc_flips(g, point, own, opp, flipped)
                                                         : 0;
            if (!nf && b_test(g->perimeter, point)) {
                /* the rejection of sample_legal_point on the union never built: ``moved``
                 * holds the places it has rewritten */
                int any_moved = 0;
                memset(has_moved, 0, sizeof(int) * (size_t)size);
                for (;;) {
                    size--;
                    int to;
                    if (has_moved[size])
                        to = moved[size];
                    else if (!any_moved) {
                        int hi = b_high(edge);
                        to = s.inner[s.ninner - 1] > hi ? s.inner[s.ninner - 1] : hi;
                    } else
                        to = kth(&s, size, edge);
                    moved[i] = to;
                    has_moved[i] = 1;
                    any_moved = 1;
                    if (size == 0) {
                        PyErr_SetString(PyExc_IndexError, "crosscut: no legal point");
                        return NULL;
                    }
                    if (draw_index(&c, size, &i) < 0) return NULL;
                    point = has_moved[i] ? moved[i] : kth(&s, i, edge);
                    nf = cc_flips(g, point, own, opp, flipped);
                    if (nf || !b_test(g->perimeter, point)) break;
                }
            }
        }
        if (record(&c, point, turn) < 0) return NULL;
        /* place, as Crosscut._place */
        bb bits = b_zero();
        for (int q = 0; q < nf; q++) b_set(&bits, flipped[q]);
        int nchanged = nf;
        own = b_or(own, bits);
        if (!b_test(g->perimeter, point)) {
            flipped[nchanged++] = point;
            b_set(&own, point);
            sorted_remove(s.inner, &s.ninner, point);
        }
        stones[turn] = own;
        stones[1 - turn] = b_andnot(opp, bits);
        /* a whole interior line through a changed disc is a win (the perimeter is empty) */
        for (int q = 0; q < nchanged; q++) {
            int p = flipped[q], row = p / n, col = p % n, whole = 1;
            for (int x = 1; x < n - 1 && whole; x++) whole = b_test(own, row * n + x);
            if (whole) return PyLong_FromLong(turn);
            whole = 1;
            for (int y = 1; y < n - 1 && whole; y++) whole = b_test(own, y * n + col);
            if (whole) return PyLong_FromLong(turn);
        }
        last = point;
        /* the skip rule: an empty interior point is legal for either player */
        if (!s.ninner) return resume(moves, last);
        turn = 1 - turn;
    }
}

/* ai.connection.run_distance: the least, over the interior rows and columns, of (points of
 * the line not in ``own`` + 0.5 per disc of ``opp`` on it), in the same doubles (every term is
 * a multiple of 0.5, so exact either way). */
static double cc_run_distance(const Geo *g, bb own, bb opp) {
    int n = g->n;
    double best = (double)INFINITE;
    for (int axis = 0; axis < 2; axis++)
        for (int line = 1; line < n - 1; line++) {
            int held = 0, enemy = 0;
            for (int x = 1; x < n - 1; x++) {
                int p = axis == 0 ? line * n + x : x * n + line;
                held += b_test(own, p);
                enemy += b_test(opp, p);
            }
            double need = (double)(n - 2 - held) + 0.5 * (double)enemy;
            if (need < best) best = need;
        }
    return best;
}

/* The arguments (n, own, opp) of a kernel over one position: the board's tables and the two
 * colours' stones.  -1 with an exception set (a TypeError showing ``usage`` if none was). */
static int position_args(PyObject *const *args, Py_ssize_t nargs, const char *usage,
                         const Geo **g, bb *own, bb *opp) {
    int n;
    if (nargs != 3 || int_arg(args[0], &n) < 0 || !(*g = geo(n)) || to_bb(args[1], own) < 0 ||
        to_bb(args[2], opp) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    return 0;
}

/* ai.connection.run_move_priors without the engine: each legal placement of the mover (who
 * holds ``own``) made as Crosscut._place makes it, scored by the opponent's run distance minus
 * the mover's, scaled to 0..1 over the legal placements; a list of a float per point. */
static PyObject *cc_priors(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    bb own, opp;
    const Geo *g;
    if (position_args(args, nargs, "crosscut_priors(n, own, opp)", &g, &own, &opp) < 0) return NULL;
    bb empty = b_andnot(g->full, b_or(own, opp));
    /* Crosscut._quick_masks: empty interior points, and perimeter points next to an enemy
     * disc, legal only if they flip */
    bb maybe = b_or(b_and(empty, g->interior), b_and(b_and(dilate4(g, opp), empty), g->perimeter));
    int points[MAXAREA], flipped[4 * MAXN];
    double scores[MAXAREA];
    int count = 0, np = b_list(maybe, points);
    double low = 0.0, high = 0.0;
    for (int i = 0; i < np; i++) {
        int p = points[i], nf = cc_flips(g, p, own, opp, flipped), stays = !b_test(g->perimeter, p);
        if (!nf && !stays) continue; /* a perimeter point that flips nothing is not legal */
        bb bits = b_zero();
        for (int q = 0; q < nf; q++) b_set(&bits, flipped[q]);
        bb mine = b_or(own, bits), theirs = b_andnot(opp, bits);
        if (stays) b_set(&mine, p);
        double score = cc_run_distance(g, theirs, mine) - cc_run_distance(g, mine, theirs);
        if (!count || score < low) low = score;
        if (!count || score > high) high = score;
        points[count] = p;
        scores[count++] = score;
    }
    PyObject *out = PyList_New(g->area);
    if (!out) return NULL;
    double spread = high - low;
    int at = 0;
    for (int p = 0; p < g->area; p++) {
        double value = 0.0;
        if (at < count && points[at] == p) {
            if (spread > 0) value = (scores[at] - low) / spread;
            at++;
        }
        PyObject *f = PyFloat_FromDouble(value);
        if (!f) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, p, f);
    }
    return out;
}

/* Crosscut._legal_mask for the mover holding ``own``: every empty interior point, and each
 * empty perimeter point next to an enemy disc that flips (Crosscut._quick_masks). */
static PyObject *cc_legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    bb own, opp;
    const Geo *g;
    if (position_args(args, nargs, "crosscut_legal(n, own, opp)", &g, &own, &opp) < 0) return NULL;
    bb empty = b_andnot(g->full, b_or(own, opp));
    bb legal = b_and(empty, g->interior);
    int points[MAXAREA], flipped[4 * MAXN];
    int np = b_list(b_and(b_and(dilate4(g, opp), empty), g->perimeter), points);
    for (int i = 0; i < np; i++)
        if (cc_flips(g, points[i], own, opp, flipped)) b_set(&legal, points[i]);
    return words_to_pyint(legal.w, W);
}

/* The points of ``mask`` where a placement by the mover holding ``own`` wins at once, as
 * Crosscut._place decides it: a run of N-2 through a changed disc (the placed one, unless on
 * the perimeter, and the flipped ones).  A perimeter point that flips nothing is not legal,
 * so never a win. */
static PyObject *cc_winning(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int n;
    bb own, opp, mask;
    const Geo *g;
    if (nargs != 4 || int_arg(args[0], &n) < 0 || !(g = geo(n)) || to_bb(args[1], &own) < 0 ||
        to_bb(args[2], &opp) < 0 || to_bb(args[3], &mask) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "crosscut_winning(n, own, opp, mask)");
        return NULL;
    }
    bb empty = b_andnot(g->full, b_or(own, opp)), won = b_zero();
    int points[MAXAREA], flipped[4 * MAXN + 1];
    int np = b_list(b_and(mask, empty), points);
    for (int i = 0; i < np; i++) {
        int p = points[i], nf = cc_flips(g, p, own, opp, flipped), stays = !b_test(g->perimeter, p);
        if (!nf && !stays) continue;
        bb after = own;
        for (int q = 0; q < nf; q++) b_set(&after, flipped[q]);
        if (stays) {
            b_set(&after, p);
            flipped[nf++] = p;
        }
        for (int q = 0; q < nf; q++)
            if (run_through(g, after, flipped[q]) >= n - 2) {
                b_set(&won, p);
                break;
            }
    }
    return words_to_pyint(won.w, W);
}

/* === Clearcut (ai/fast/clearcut.py) ====================================================== */

/* Clearcut._allowed: the new group is larger than every enemy crosscut group. */
static int allowed(const Geo *g, int point, bb own, bb opp) {
    bb bit = b_bit(point);
    int size = b_count(flood(g, bit, b_or(own, bit), 0));
    for (int k = 0; k < g->square_count[point]; k++) {
        const int *sq = g->squares[point][k];
        if (b_test(own, sq[0]) && b_test(opp, sq[1]) && b_test(opp, sq[2])) {
            if (!(size > b_count(flood(g, b_bit(sq[1]), opp, 0)) &&
                  size > b_count(flood(g, b_bit(sq[2]), opp, 0))))
                return 0;
        }
    }
    return 1;
}

/* Clearcut._crosscut_candidates (before the mask of empty points). */
static inline bb candidates(const Geo *g, bb own, bb opp) {
    int n = g->n;
    bb east = b_and(b_shr(opp, 1), g->not_right), west = b_and(b_shl(opp, 1), g->not_left);
    bb north = b_shr(opp, n), south = b_and(b_shl(opp, n), g->full);
    bb a = b_and(b_and(b_and(b_shr(own, n + 1), g->not_right), east), north);
    bb b = b_and(b_and(b_and(b_shl(own, n - 1), g->not_right), east), south);
    bb c = b_and(b_and(b_and(b_shr(own, n - 1), g->not_left), west), north);
    bb d = b_and(b_and(b_and(b_shl(own, n + 1), g->not_left), west), south);
    return b_or(b_or(a, b), b_or(c, d));
}

/* The points of ``theirs`` (crosscut candidates) allowed to ``own``, as a mask. */
static bb allowed_mask(const Geo *g, bb theirs, bb own, bb opp, int *pool) {
    bb found = b_zero();
    int np = b_list(theirs, pool);
    for (int q = 0; q < np; q++)
        if (allowed(g, pool[q], own, opp)) b_set(&found, pool[q]);
    return found;
}

/* Clearcut._legal_mask for the mover holding ``own``: every empty point that forms no
 * crosscut, and each that forms one and is allowed (Clearcut._quick_masks, _allowed). */
static PyObject *cut_legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    bb own, opp;
    const Geo *g;
    if (position_args(args, nargs, "clearcut_legal(n, own, opp)", &g, &own, &opp) < 0) return NULL;
    int pool[MAXAREA];
    bb empty = b_andnot(g->full, b_or(own, opp));
    bb theirs = b_and(candidates(g, own, opp), empty);
    bb legal = b_or(b_andnot(empty, theirs), allowed_mask(g, theirs, own, opp, pool));
    return words_to_pyint(legal.w, W);
}

static PyObject *clearcut(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* ctx..., n, stones (2), reach (4), turn, turn_number, known, last, pie, stop */
    if (nargs != CTX_ARGS + 13) {
        PyErr_SetString(PyExc_TypeError, "clearcut: wrong number of arguments");
        return NULL;
    }
    Ctx c;
    if (ctx_args(args, &c) < 0) return NULL;
    args += CTX_ARGS;
    int n, turn, turn_number, last, pie, stop, has_known = args[9] != Py_None;
    bb stones[2], reach[2][2], known = b_zero(), edge[2][2];
    const Geo *g;
    if (int_arg(args[0], &n) < 0 || !(g = geo(n))) return NULL;
    for (int i = 0; i < 2; i++) {
        if (to_bb(args[1 + i], &stones[i]) < 0) return NULL;
        for (int j = 0; j < 2; j++)
            if (to_bb(args[3 + 2 * i + j], &reach[i][j]) < 0) return NULL;
    }
    if (int_arg(args[7], &turn) < 0 || int_arg(args[8], &turn_number) < 0 ||
        (has_known && to_bb(args[9], &known) < 0) || opt_int_arg(args[10], &last) < 0 ||
        int_arg(args[11], &pie) < 0 || int_arg(args[12], &stop) < 0)
        return NULL;
    edge[0][0] = g->bottom;
    edge[0][1] = g->top;
    edge[1][0] = g->left;
    edge[1][1] = g->right;
    int empties[MAXAREA], ne = b_list(b_andnot(g->full, b_or(stones[0], stones[1])), empties);
    int pool[MAXAREA], np, moves = 0, k, i;
    for (;;) {
        if ((k = late(&c)) != 0) {
            if (k < 0) return NULL;
            Py_RETURN_NONE;
        }
        if (moves == stop) return resume(moves, last);
        moves++;
        bb own = stones[turn], opp = stones[1 - turn];
        bb cand = candidates(g, own, opp);
        int point;
        /* draw a legal point as QuickTurns.sample_legal_point does */
        if (has_known) {
            np = b_list(known, pool);
            has_known = 0;
            if (!np) return resume(moves - 1, last);
            if (draw_index(&c, np, &i) < 0) return NULL;
            point = pool[i];
        } else {
            if (draw_index(&c, ne, &i) < 0) return NULL;
            point = empties[i];
            if (b_test(cand, point) && !allowed(g, point, own, opp)) {
                np = ne;
                memcpy(pool, empties, sizeof(int) * (size_t)ne);
                for (;;) {
                    pool[i] = pool[--np];
                    if (draw_index(&c, np, &i) < 0) return NULL;
                    point = pool[i];
                    if (!b_test(cand, point) || allowed(g, point, own, opp)) break;
                }
            }
        }
        if (record(&c, point, turn) < 0) return NULL;
        /* place, as Clearcut._place */
        b_set(&own, point);
        stones[turn] = own;
        sorted_remove(empties, &ne, point);
        if (b_test(cand, point)) {
            bb removed = b_zero();
            for (int q = 0; q < g->square_count[point]; q++) {
                const int *sq = g->squares[point][q];
                if (b_test(own, sq[0]) && b_test(opp, sq[1]) && b_test(opp, sq[2])) {
                    b_set(&removed, sq[1]);
                    b_set(&removed, sq[2]);
                }
            }
            if (b_any(removed)) {
                opp = b_andnot(opp, removed);
                stones[1 - turn] = opp;
                for (int j = 0; j < 2; j++)
                    reach[1 - turn][j] = flood(g, b_and(opp, edge[1 - turn][j]), opp, 0);
                np = b_list(removed, pool);
                for (int q = 0; q < np; q++) sorted_insert(empties, &ne, pool[q]);
            }
        }
        reach_add(g, &reach[turn][0], own, edge[turn][0], point, 0);
        reach_add(g, &reach[turn][1], own, edge[turn][1], point, 0);
        if (b_any(b_and(reach[turn][0], reach[turn][1]))) return PyLong_FromLong(turn);
        last = point;
        /* the skip rule, as QuickTurns._pass_turn: the opponent has a point forming no
         * crosscut (each of their stones makes at most four points crosscut candidates) */
        if (ne <= 4 * b_count(opp)) {
            bb empty = b_andnot(g->full, b_or(own, opp));
            bb theirs = b_and(candidates(g, opp, own), empty);
            if (!b_any(b_andnot(empty, theirs))) {
                known = allowed_mask(g, theirs, opp, own, pool);
                has_known = 1;
                if (!b_any(known)) {
                    /* the skip rule: the mover places again, from the whole mask */
                    turn_number++;
                    if (pie && turn_number == 2) return resume(moves, last);
                    turn_number++;
                    bb mine = b_and(candidates(g, own, opp), empty);
                    known = b_or(b_andnot(empty, mine), allowed_mask(g, mine, own, opp, pool));
                    if (!b_any(known)) return resume(moves, last);
                    continue;
                }
            }
        }
        turn = 1 - turn;
        turn_number++;
    }
}

#undef Classes
#undef ClearPath
#undef Crosscut
#undef Geo
#undef Paths
#undef allowed
#undef allowed_mask
#undef b_and
#undef b_andnot
#undef b_any
#undef b_bit
#undef b_clear
#undef b_count
#undef b_eq
#undef b_high
#undef b_list
#undef b_low
#undef b_or
#undef b_set
#undef b_shl
#undef b_shr
#undef b_test
#undef b_zero
#undef bb
#undef candidates
#undef cc_flips
#undef cc_priors
#undef cc_legal_mask
#undef cc_winning
#undef cc_run_distance
#undef clearcut
#undef cut_legal_mask
#undef position_args
#undef clearpath
#undef cp_can_finish_after
#undef cp_chain_legal
#undef cp_classify
#undef cp_derive_odip
#undef cp_derive_oip
#undef cp_legal
#undef cp_legal_mask
#undef crosscut
#undef dilate4
#undef dilate8
#undef distance
#undef flood
#undef geo
#undef geos
#undef glyph_mask
#undef glyphs
#undef kth
#undef layers
#undef minefield
#undef on_path
#undef ray
#undef reach_add
#undef run_through
#undef shift
#undef surrounded_mask
#undef to_bb
