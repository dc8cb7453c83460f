/* Minefield's glyph mask, compiled: the exact twin of rules.minefield.glyph_mask.
 *
 * The engine computes the next player's legal mask after every placement (the skip rule needs
 * it), and in a level-3 search that mask was a third of a Minefield game's CPU: about forty
 * and-expressions over shifted Python ints per call.  Here the same terms (rules.minefield's
 * GLYPH_TERMS, handed over once by set_glyph_terms, so they are written in one place) run on
 * 64-bit words; the function returns exactly the int the Python one returns
 * (tests/rules/test_mine_core.py compares them on random boards at every size).
 *
 * Optional, as rules/_ndcore.c: where it is not built, or CROSSPATH_PURE_PYTHON=1 is set, the
 * pure-Python function runs.  Only the public C API of CPython 3.11+ is used; ints cross
 * through rules/_pyint_words.h, as in the other two cores.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_pyint_words.h"

#define MAXN 19
#define W 6           /* 64-bit words of a 19x19 bitboard */
#define REACH 4       /* offsets of a term lie within -REACH..REACH */
#define MAXTERMS 64
#define MAXFACTORS 16

typedef struct {
    uint64_t w[W];
} bb;

static int to_bb(PyObject *v, bb *out) { return pyint_to_words(v, out->w, W); }

static PyObject *from_bb(const bb *b) { return words_to_pyint(b->w, W); }

static inline void set_bit(bb *b, int i) { b->w[i >> 6] |= (uint64_t)1 << (i & 63); }

/* r = m >> k for k >= 0, m << -k for k < 0 (as Python shifts an int), over nw words. */
static void shift_by(bb *r, const bb *m, int k, int nw) {
    memset(r, 0, sizeof *r);
    if (k >= 0) {
        int words = k >> 6, bits = k & 63;
        for (int i = 0; i + words < nw; i++) {
            uint64_t lo = m->w[i + words] >> bits;
            uint64_t hi = bits && i + words + 1 < nw ? m->w[i + words + 1] << (64 - bits) : 0;
            r->w[i] = lo | hi;
        }
    } else {
        k = -k;
        int words = k >> 6, bits = k & 63;
        for (int i = nw - 1; i >= words; i--) {
            uint64_t hi = m->w[i - words] << bits;
            uint64_t lo = bits && i - words - 1 >= 0 ? m->w[i - words - 1] >> (64 - bits) : 0;
            r->w[i] = hi | lo;
        }
    }
}

/* --- the terms: (which board, dx, dy) factors, which 0 own, 1 opp, 2 empty --------------- */

static int nterms = -1;
static int term_size[MAXTERMS];
static int term_factor[MAXTERMS][MAXFACTORS][3];

/* Grid.shift(full, dx, dy)'s mask per size: the points whose (dx, dy) neighbour is on the
 * board. */
typedef struct {
    int ready, nw;
    bb valid[2 * REACH + 1][2 * REACH + 1];
} Geo;

static Geo geos[MAXN + 1];

static const Geo *geo(int n) {
    if (n < 2 || n > MAXN) {
        PyErr_SetString(PyExc_ValueError, "board size out of range");
        return NULL;
    }
    Geo *g = &geos[n];
    if (g->ready) return g;
    g->nw = (n * n + 63) / 64;
    for (int p = 0; p < n * n; p++) {
        int c = p % n, r = p / n;
        for (int dx = -REACH; dx <= REACH; dx++)
            for (int dy = -REACH; dy <= REACH; dy++)
                if (c + dx >= 0 && c + dx < n && r + dy >= 0 && r + dy < n)
                    set_bit(&g->valid[dx + REACH][dy + REACH], p);
    }
    g->ready = 1;
    return g;
}

static PyObject *set_glyph_terms(PyObject *self, PyObject *terms) {
    PyObject *seq = PySequence_Fast(terms, "glyph terms must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAXTERMS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many glyph terms");
        return NULL;
    }
    int sizes[MAXTERMS], factors[MAXTERMS][MAXFACTORS][3];
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *term = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, t), "a term is a sequence");
        if (!term) goto fail;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(term);
        if (size > MAXFACTORS) {
            Py_DECREF(term);
            PyErr_SetString(PyExc_ValueError, "glyph term too long");
            goto fail;
        }
        for (Py_ssize_t f = 0; f < size; f++) {
            int v[3];
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(term, f), "iii", &v[0], &v[1], &v[2])) {
                Py_DECREF(term);
                goto fail;
            }
            if (v[0] < 0 || v[0] > 2 || v[1] < -REACH || v[1] > REACH || v[2] < -REACH ||
                v[2] > REACH) {
                Py_DECREF(term);
                PyErr_SetString(PyExc_ValueError, "glyph factor out of range");
                goto fail;
            }
            memcpy(factors[t][f], v, sizeof v);
        }
        sizes[t] = (int)size;
        Py_DECREF(term);
    }
    memcpy(term_size, sizes, sizeof sizes);
    memcpy(term_factor, factors, sizeof factors);
    nterms = (int)count;
    Py_DECREF(seq);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    return NULL;
}

/* glyph_mask(size, own, opp, empty): rules.minefield.glyph_mask(grid(size), own, opp, empty). */
static PyObject *glyph_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "glyph_mask(size, own, opp, empty)");
        return NULL;
    }
    long n = PyLong_AsLong(args[0]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    const Geo *g = geo((int)n);
    bb boards[3];
    if (!g || to_bb(args[1], &boards[0]) < 0 || to_bb(args[2], &boards[1]) < 0 ||
        to_bb(args[3], &boards[2]) < 0)
        return NULL;
    if (nterms < 0) {
        PyErr_SetString(PyExc_RuntimeError, "glyph terms not set");
        return NULL;
    }
    int nw = g->nw;
    bb found, shifted;
    memset(&found, 0, sizeof found);
    for (int t = 0; t < nterms; t++) {
        bb acc = boards[2];
        int any = 1;
        for (int f = 0; f < term_size[t] && any; f++) {
            const int *x = term_factor[t][f];
            const bb *valid = &g->valid[x[1] + REACH][x[2] + REACH];
            shift_by(&shifted, &boards[x[0]], x[1] + x[2] * (int)n, nw);
            any = 0;
            for (int i = 0; i < nw; i++) {
                acc.w[i] &= shifted.w[i] & valid->w[i];
                any |= acc.w[i] != 0;
            }
        }
        if (any)
            for (int i = 0; i < nw; i++) found.w[i] |= acc.w[i];
    }
    return from_bb(&found);
}

static PyMethodDef methods[] = {
    {"set_glyph_terms", set_glyph_terms, METH_O,
     "rules.minefield.GLYPH_TERMS, each term flattened to (which, dx, dy) factors."},
    {"glyph_mask", (PyCFunction)(void (*)(void))glyph_mask, METH_FASTCALL,
     "rules.minefield.glyph_mask(grid(size), own, opp, empty) for every glyph kind."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "rules._minecore",
    "Minefield's glyph mask, compiled (see rules/_minecore.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__minecore(void) { return PyModule_Create(&module); }
