/* The playout kernels of ai/fast/ compiled: the same playouts, move for move, in C.
 *
 * Each function here is a line-by-line port of one Python kernel in ai/fast/ (clearpath.py,
 * minefield.py, crosscut.py, clearcut.py), which stay the reference: the same bitboard
 * expressions on fixed-width bitboards, the same lists in the same order, and the search's
 * random source called once per draw exactly where the Python kernel calls it, so a seed
 * gives the same moves, winner and generator state either way (tests/ai/test_fast_core.py
 * plays both side by side).  The Python wrapper of each kernel reads the game and builds the
 * Resume; a function here returns the winning colour index, None when the deadline passed,
 * or (moves, last) where the Python kernel returns a Resume of the placements recorded.
 *
 * The bitboard code and the kernels are in _fastcore_kernels.h, compiled here once per
 * bitboard width (the end of this file).
 *
 * Built by setup.py as an optional extension: where it is absent the Python kernels run.
 * Only the public C API of CPython 3.11+ is used, so nothing here depends on the build
 * machine beyond a C compiler and Python's headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../rules/_pyint_words.h"

/* Boards up to 19x19: 361 points, six 64-bit words at most. */
#define MAXN 19
#define MAXAREA (MAXN * MAXN)
#define INFINITE 10000 /* ai.connection.INFINITE: only compared, never added */

/* --- The search's side: its random source, clock and record of placements ---------------- */

typedef struct {
    PyObject *rand, *clock, *played;
    double deadline;
    int flip;
} Ctx;

static inline int draw(Ctx *c, double *out) {
    PyObject *r = PyObject_CallNoArgs(c->rand);
    if (!r) return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (*out == -1.0 && PyErr_Occurred()) return -1;
    return 0;
}

/* int(rand() * count), as the Python kernels draw an index. */
static inline int draw_index(Ctx *c, int count, int *out) {
    double r;
    if (draw(c, &r) < 0) return -1;
    *out = (int)(r * (double)count);
    if (*out < 0 || *out >= count) {
        PyErr_SetString(PyExc_IndexError, "drawn index out of range");
        return -1;
    }
    return 0;
}

/* 1 when the deadline has passed, 0 if not (or there is none), -1 on error. */
static inline int late(Ctx *c) {
    if (c->clock == Py_None) return 0;
    PyObject *t = PyObject_CallNoArgs(c->clock);
    if (!t) return -1;
    double now = PyFloat_AsDouble(t);
    Py_DECREF(t);
    if (now == -1.0 && PyErr_Occurred()) return -1;
    return now > c->deadline;
}

static inline int record(Ctx *c, int point, int person) {
    PyObject *a = PyLong_FromLong(point), *b = PyLong_FromLong(person ^ c->flip);
    if (!a || !b) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return -1;
    }
    PyObject *t = PyTuple_Pack(2, a, b);
    Py_DECREF(a);
    Py_DECREF(b);
    if (!t) return -1;
    int rc = PyList_Append(c->played, t);
    Py_DECREF(t);
    return rc;
}

/* (moves, last): the Python kernel's Resume of the placements recorded since it began. */
static PyObject *resume(int moves, int last) {
    if (last < 0) return Py_BuildValue("(iO)", moves, Py_None);
    return Py_BuildValue("(ii)", moves, last);
}


static int int_arg(PyObject *v, int *out) {
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

/* None -> -1, else the int. */
static int opt_int_arg(PyObject *v, int *out) {
    if (v == Py_None) {
        *out = -1;
        return 0;
    }
    return int_arg(v, out);
}

static int ctx_args(PyObject *const *args, Ctx *c) {
    /* rand, clock (None: no deadline), deadline, played, flip */
    c->rand = args[0];
    c->clock = args[1];
    c->deadline = 0.0;
    if (c->clock != Py_None) {
        c->deadline = PyFloat_AsDouble(args[2]);
        if (c->deadline == -1.0 && PyErr_Occurred()) return -1;
    }
    if (!PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "played must be a list");
        return -1;
    }
    c->played = args[3];
    return int_arg(args[4], &c->flip);
}

#define CTX_ARGS 5

/* Sorted int arrays (the kernels' lists of empty points). */
static inline void sorted_remove(int *a, int *count, int x) {
    for (int i = 0; i < *count; i++)
        if (a[i] == x) {
            memmove(a + i, a + i + 1, (size_t)(*count - i - 1) * sizeof(int));
            (*count)--;
            return;
        }
}
static inline void sorted_insert(int *a, int *count, int x) {
    int i = *count;
    while (i > 0 && a[i - 1] > x) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = x;
    (*count)++;
}
/* bisect_left */
static inline int lower_bound(const int *a, int count, int x) {
    int lo = 0, hi = count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* === Minefield (ai/fast/minefield.py) ==================================================== */

/* rules.minefield.GLYPH_TERMS, flattened: per term its factors (board 0 own, 1 opp, 2 empty;
 * dx; dy), set once from Python so the terms are written once, in rules/. */
#define MAXTERMS 64
#define MAXFACTORS 8
static int glyph_terms = -1;
static int term_size[MAXTERMS];
static int term_factor[MAXTERMS][MAXFACTORS][3];

static PyObject *set_glyph_terms(PyObject *self, PyObject *terms) {
    PyObject *seq = PySequence_Fast(terms, "glyph terms must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAXTERMS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many glyph terms");
        return NULL;
    }
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *term = PySequence_Fast_GET_ITEM(seq, t);
        Py_ssize_t size = PySequence_Size(term);
        if (size < 0 || size > MAXFACTORS) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "glyph term too long");
            return NULL;
        }
        for (Py_ssize_t f = 0; f < size; f++) {
            PyObject *factor = PySequence_GetItem(term, f);
            int which, dx, dy;
            int ok = factor && PyArg_ParseTuple(factor, "iii", &which, &dx, &dy);
            Py_XDECREF(factor);
            if (!ok) {
                Py_DECREF(seq);
                return NULL;
            }
            if (which < 0 || which > 2 || dx < -4 || dx > 4 || dy < -4 || dy > 4) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "glyph factor out of range");
                return NULL;
            }
            term_factor[t][f][0] = which;
            term_factor[t][f][1] = dx;
            term_factor[t][f][2] = dy;
        }
        term_size[t] = (int)size;
    }
    glyph_terms = (int)count;
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

/* Grid.shift */
/* === The kernels, once per bitboard width ================================================ */

/* A bitboard of W words: the narrowest that holds the board (2 words up to 11x11, 3 up to
 * 13x13, 6 up to 19x19), since every bitboard operation is a loop over the words and a 9x9
 * playout ran twice as fast on two words as on six. */
#define CAT(a, b) a##_##b
#define CAT2(a, b) CAT(a, b)
#define SFX(name) CAT2(name, W)
#define W 2
#include "_fastcore_kernels.h"
#include "_fastcore_paths.h"
#undef W
#define W 3
#include "_fastcore_kernels.h"
#include "_fastcore_paths.h"
#undef W
#define W 6
#include "_fastcore_kernels.h"
#include "_fastcore_paths.h"
#undef W

/* ``public`` sends its call to ``kernel`` of the narrowest width that holds the board, whose
 * size is the argument at index ``at``. */
#define DISPATCH_AT(public, kernel, at)                                                     \
    static PyObject *public(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {      \
        long n = nargs > (at) ? PyLong_AsLong(args[at]) : 0;                                 \
        if (n == -1 && PyErr_Occurred()) return NULL;                                        \
        if (n <= 11) return kernel##_2(self, args, nargs);                                   \
        if (n <= 13) return kernel##_3(self, args, nargs);                                   \
        return kernel##_6(self, args, nargs);                                                \
    }

/* The playouts: the board size is the sixth argument (after the Ctx's five). */
DISPATCH_AT(clearpath, clearpath, CTX_ARGS)
DISPATCH_AT(minefield, minefield, CTX_ARGS)
DISPATCH_AT(crosscut, crosscut, CTX_ARGS)
DISPATCH_AT(clearcut, clearcut, CTX_ARGS)

/* The rest: path_points(n, own, opp, player), glyphs(n, a, b, empty), clearpath_legal(n, ...),
 * crosscut_legal(n, own, opp), crosscut_winning(n, own, opp, mask), clearcut_legal(n, own,
 * opp) and crosscut_priors(n, own, opp) take the size first. */
DISPATCH_AT(path_points, path_points, 0)
DISPATCH_AT(glyphs, glyphs, 0)
DISPATCH_AT(clearpath_legal, cp_legal_mask, 0)
DISPATCH_AT(crosscut_legal, cc_legal_mask, 0)
DISPATCH_AT(crosscut_winning, cc_winning, 0)
DISPATCH_AT(clearcut_legal, cut_legal_mask, 0)
DISPATCH_AT(crosscut_priors, cc_priors, 0)

/* === The search tree (ai/tree.py) ======================================================== */

#include "_fastcore_tree.h"

/* === module ============================================================================== */

static PyMethodDef methods[] = {
    {"clearpath", (PyCFunction)(void (*)(void))clearpath, METH_FASTCALL,
     "Clear Path's playout (ai.fast.clearpath)."},
    {"minefield", (PyCFunction)(void (*)(void))minefield, METH_FASTCALL,
     "Minefield's playout (ai.fast.minefield)."},
    {"crosscut", (PyCFunction)(void (*)(void))crosscut, METH_FASTCALL,
     "Crosscut's uniform playout (ai.fast.crosscut)."},
    {"clearcut", (PyCFunction)(void (*)(void))clearcut, METH_FASTCALL,
     "Clearcut's uniform playout (ai.fast.clearcut)."},
    {"set_glyph_terms", set_glyph_terms, METH_O, "rules.minefield.GLYPH_TERMS, flattened."},
    {"glyphs", (PyCFunction)(void (*)(void))glyphs, METH_FASTCALL,
     "Both sides' Minefield glyph masks (for the tests)."},
    TREE_METHODS
    {"path_points", (PyCFunction)(void (*)(void))path_points, METH_FASTCALL,
     "Both sides' shortest-path points (ai.connection.move_priors)."},
    {"clearpath_legal", (PyCFunction)(void (*)(void))clearpath_legal, METH_FASTCALL,
     "Clear Path's legal mask (rules.clearpath.ClearPath._legal_mask) from its state."},
    {"crosscut_legal", (PyCFunction)(void (*)(void))crosscut_legal, METH_FASTCALL,
     "Crosscut's legal mask (rules.crosscut.Crosscut._legal_mask) for the mover holding own."},
    {"crosscut_winning", (PyCFunction)(void (*)(void))crosscut_winning, METH_FASTCALL,
     "The points of a mask where Crosscut's mover holding own wins at once."},
    {"clearcut_legal", (PyCFunction)(void (*)(void))clearcut_legal, METH_FASTCALL,
     "Clearcut's legal mask (rules.clearcut.Clearcut._legal_mask) for the mover holding own."},
    {"crosscut_priors", (PyCFunction)(void (*)(void))crosscut_priors, METH_FASTCALL,
     "Crosscut's move priors (ai.connection.run_move_priors) for the mover holding own."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ai._fastcore",
    "The playout kernels of ai.fast, compiled (see ai/_fastcore.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__fastcore(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && tree_init(m) < 0) Py_CLEAR(m);
    return m;
}
