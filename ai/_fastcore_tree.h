/* The search tree's hot parts compiled: its node, the UCT choice and the backup (ai/tree.py).
 *
 * ai/tree.py holds the pure-Python twins, which stay the reference: the Node here has the
 * same attributes and the same expand(), uct_choice and backup do the same floating-point
 * operations in the same order on IEEE doubles (so the same bits: setup.py builds with
 * -ffp-contract=off, since a fused multiply-add would round differently), and expand()
 * shuffles with the same calls to the search's random generator as random.Random.shuffle.
 * tests/ai/test_tree_core.py runs whole searches both ways and compares every node.
 *
 * Why C: a level-3 search spent most of its time here, creating ~80 Python objects per
 * expansion (most never visited) and scoring every child in Python at every step.
 *
 * Included once from _fastcore.c.  A Node is not tracked by the cyclic garbage collector: the
 * tree holds no reference cycles (tests/ai/test_search_gc.py), so reference counting frees it,
 * and a tracked node would only make each creation and each collection dearer.
 */

#include <math.h>
#include <structmember.h>

#define DRAW (-1)            /* ai.evaluators.DRAW */
#define TREE_WORDS 6         /* points of boards up to 19x19 in a bitset */
#define TREE_POINTS (TREE_WORDS * 64)

typedef struct {
    PyObject_HEAD
    PyObject *move;       /* a point (int) or a named move (str) */
    PyObject *children;   /* list of Node, or None before expansion */
    PyObject *by_point;   /* dict point -> child; NULL until first read or expand() */
    PyObject *point_mask; /* int: the children's points */
    PyObject *unchecked;  /* int: Naked Diagonal points not yet proven legal */
    Py_ssize_t visits, amaf_visits;
    double wins, amaf_wins, prior;
    int person, mover, proven;
    int point; /* move as an index when it is a point, else -1 (move never changes) */
    char terminal, needs_prior, complete;
} NodeObject;

static PyTypeObject NodeType;
static PyObject *random_type; /* random.Random, whose shuffle expand() repeats in C */

static int move_point(PyObject *move) {
    if (!PyLong_Check(move) || PyBool_Check(move)) return -1;
    long p = PyLong_AsLong(move);
    if (p == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return p >= 0 && p < TREE_POINTS ? (int)p : -2;
}

static NodeObject *node_make(PyObject *move, int person) {
    int point = move_point(move);
    if (point == -2) {
        PyErr_SetString(PyExc_ValueError, "a point beyond a 19x19 board");
        return NULL;
    }
    NodeObject *node = PyObject_New(NodeObject, &NodeType);
    if (!node) return NULL;
    Py_INCREF(move);
    node->move = move;
    node->children = Py_NewRef(Py_None);
    /* Most nodes are leaves never expanded: their dict is made only if someone asks. */
    node->by_point = NULL;
    node->point_mask = PyLong_FromLong(0);
    node->unchecked = PyLong_FromLong(0);
    node->visits = node->amaf_visits = 0;
    node->wins = node->amaf_wins = node->prior = 0.0;
    node->person = person;
    node->mover = 1 - person;
    node->proven = 0;
    node->point = point;
    node->terminal = node->needs_prior = 0;
    node->complete = 1;
    return node;
}

static PyObject *node_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *move;
    int person;
    static char *kwlist[] = {"move", "person", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oi:Node", kwlist, &move, &person)) return NULL;
    return (PyObject *)node_make(move, person);
}

static void node_dealloc(NodeObject *node) {
    Py_XDECREF(node->move);
    Py_XDECREF(node->children);
    Py_XDECREF(node->by_point);
    Py_XDECREF(node->point_mask);
    Py_XDECREF(node->unchecked);
    PyObject_Free(node);
}

/* An int of the bits in `words`. */
static PyObject *words_to_int(const uint64_t *words) {
    int top = TREE_WORDS - 1;
    while (top > 0 && !words[top]) top--;
    PyObject *result = PyLong_FromUnsignedLongLong(words[top]);
    for (int i = top - 1; i >= 0 && result; i--) {
        PyObject *shift = PyLong_FromLong(64), *low = PyLong_FromUnsignedLongLong(words[i]);
        PyObject *shifted = shift && low ? PyNumber_Lshift(result, shift) : NULL;
        Py_DECREF(result);
        result = shifted ? PyNumber_Or(shifted, low) : NULL;
        Py_XDECREF(shifted);
        Py_XDECREF(shift);
        Py_XDECREF(low);
    }
    return result;
}

/* random.Random.shuffle(order) with Random._randbelow_with_getrandbits, the same calls to
 * rng.getrandbits in the same order; any other generator shuffles itself. */
static int shuffle(PyObject *order, PyObject *rng) {
    if (random_type == NULL || Py_TYPE(rng) != (PyTypeObject *)random_type) {
        PyObject *r = PyObject_CallMethod(rng, "shuffle", "O", order);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!getrandbits) return -1;
    PyObject **items = ((PyListObject *)order)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(order) - 1; i >= 1; i--) {
        Py_ssize_t n = i + 1, r;
        int k = 0;
        for (Py_ssize_t m = n; m; m >>= 1) k++; /* n.bit_length() */
        PyObject *bits = PyLong_FromLong(k);
        if (!bits) goto fail;
        do {
            PyObject *drawn = PyObject_CallOneArg(getrandbits, bits);
            if (!drawn) {
                Py_DECREF(bits);
                goto fail;
            }
            r = PyLong_AsSsize_t(drawn);
            Py_DECREF(drawn);
            if (r == -1 && PyErr_Occurred()) {
                Py_DECREF(bits);
                goto fail;
            }
        } while (r >= n);
        Py_DECREF(bits);
        PyObject *swap = items[i];
        items[i] = items[r];
        items[r] = swap;
    }
    Py_DECREF(getrandbits);
    return 0;
fail:
    Py_DECREF(getrandbits);
    return -1;
}

/* Node.expand(moves, mover, rng): ai.tree.Node.expand. */
static PyObject *node_expand(NodeObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expand(moves, mover, rng)");
        return NULL;
    }
    int mover = PyLong_AsLong(args[1]);
    if (mover == -1 && PyErr_Occurred()) return NULL;
    PyObject *order = PySequence_List(args[0]);
    if (!order) return NULL;
    if (shuffle(order, args[2]) < 0) {
        Py_DECREF(order);
        return NULL;
    }
    self->mover = mover;
    Py_ssize_t count = PyList_GET_SIZE(order);
    PyObject *children = PyList_New(count);
    if (!children) {
        Py_DECREF(order);
        return NULL;
    }
    uint64_t words[TREE_WORDS] = {0};
    if (!self->by_point && !(self->by_point = PyDict_New())) goto fail;
    for (Py_ssize_t i = 0; i < count; i++) {
        NodeObject *child = node_make(PyList_GET_ITEM(order, i), mover);
        if (!child) goto fail;
        PyList_SET_ITEM(children, i, (PyObject *)child);
        if (child->point >= 0) {
            if (PyDict_SetItem(self->by_point, child->move, (PyObject *)child) < 0) goto fail;
            words[child->point >> 6] |= (uint64_t)1 << (child->point & 63);
        }
    }
    Py_DECREF(order);
    order = NULL;
    PyObject *added = words_to_int(words);
    if (!added) goto fail;
    PyObject *mask = PyNumber_Or(self->point_mask, added);
    Py_DECREF(added);
    if (!mask) goto fail;
    Py_SETREF(self->point_mask, mask);
    Py_SETREF(self->children, children);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(order);
    Py_DECREF(children);
    return NULL;
}

static PyMethodDef node_methods[] = {
    {"expand", (PyCFunction)(void (*)(void))node_expand, METH_FASTCALL,
     "Create the children, one per move, in an order shuffled by rng (ai.tree.Node.expand)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef node_members[] = {
    {"move", T_OBJECT, offsetof(NodeObject, move), READONLY, NULL},
    {"children", T_OBJECT, offsetof(NodeObject, children), 0, NULL},
    {"point_mask", T_OBJECT, offsetof(NodeObject, point_mask), 0, NULL},
    {"unchecked", T_OBJECT, offsetof(NodeObject, unchecked), 0, NULL},
    {"visits", T_PYSSIZET, offsetof(NodeObject, visits), 0, NULL},
    {"amaf_visits", T_PYSSIZET, offsetof(NodeObject, amaf_visits), 0, NULL},
    {"wins", T_DOUBLE, offsetof(NodeObject, wins), 0, NULL},
    {"amaf_wins", T_DOUBLE, offsetof(NodeObject, amaf_wins), 0, NULL},
    {"prior", T_DOUBLE, offsetof(NodeObject, prior), 0, NULL},
    {"person", T_INT, offsetof(NodeObject, person), 0, NULL},
    {"mover", T_INT, offsetof(NodeObject, mover), 0, NULL},
    {"proven", T_INT, offsetof(NodeObject, proven), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyObject *node_get_by_point(NodeObject *self, void *closure) {
    if (!self->by_point && !(self->by_point = PyDict_New())) return NULL;
    return Py_NewRef(self->by_point);
}

static int node_set_by_point(NodeObject *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "by_point cannot be deleted");
        return -1;
    }
    Py_XSETREF(self->by_point, Py_NewRef(value));
    return 0;
}

/* The flags read as bools and take any value by its truth, as the search only tests them
 * (ai.moves.tree_moves hands over whatever the game's proven_legal_mask says is complete). */
#define FLAG(name)                                                                          \
    static PyObject *node_get_##name(NodeObject *self, void *closure) {                    \
        return PyBool_FromLong(self->name);                                                 \
    }                                                                                       \
    static int node_set_##name(NodeObject *self, PyObject *value, void *closure) {         \
        int truth = value ? PyObject_IsTrue(value) : -1;                                    \
        if (truth < 0) {                                                                    \
            if (!value) PyErr_SetString(PyExc_AttributeError, #name " cannot be deleted");  \
            return -1;                                                                      \
        }                                                                                   \
        self->name = (char)truth;                                                           \
        return 0;                                                                           \
    }
FLAG(terminal)
FLAG(needs_prior)
FLAG(complete)

static PyGetSetDef node_getset[] = {
    {"by_point", (getter)node_get_by_point, (setter)node_set_by_point, NULL, NULL},
    {"terminal", (getter)node_get_terminal, (setter)node_set_terminal, NULL, NULL},
    {"needs_prior", (getter)node_get_needs_prior, (setter)node_set_needs_prior, NULL, NULL},
    {"complete", (getter)node_get_complete, (setter)node_set_complete, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject NodeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ai._fastcore.Node",
    .tp_basicsize = sizeof(NodeObject),
    .tp_dealloc = (destructor)node_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One move in the search tree (ai.tree.Node, compiled).",
    .tp_new = node_new,
    .tp_methods = node_methods,
    .tp_members = node_members,
    .tp_getset = node_getset,
};

static inline NodeObject *as_node(PyObject *obj) {
    if (!Py_IS_TYPE(obj, &NodeType)) {
        PyErr_Format(PyExc_TypeError, "expected an ai._fastcore.Node, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return (NodeObject *)obj;
}

/* uct_choice(node, exploration, rave_equivalence, rave, first_play_urgency, bias):
 * ai.tree.uct_choice, operation for operation. */
static PyObject *uct_choice(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "uct_choice takes 6 arguments");
        return NULL;
    }
    NodeObject *node = as_node(args[0]);
    if (!node) return NULL;
    double c_explore = PyFloat_AsDouble(args[1]);
    double k = PyFloat_AsDouble(args[2]);
    int rave = PyObject_IsTrue(args[3]);
    double fpu = PyFloat_AsDouble(args[4]);
    double bias = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred()) return NULL;
    if (!PyList_Check(node->children)) {
        PyErr_SetString(PyExc_ValueError, "the node is not expanded");
        return NULL;
    }
    PyObject *children = node->children;
    Py_ssize_t count = PyList_GET_SIZE(children);
    double log_n = log((double)(node->visits + 1));
    NodeObject *best = NULL;
    double best_value = -INFINITY;
    for (Py_ssize_t i = 0; i < count; i++) {
        NodeObject *c = as_node(PyList_GET_ITEM(children, i));
        if (!c) return NULL;
        if (c->proven) {
            if (c->proven == 1) return Py_NewRef((PyObject *)c);
            continue;
        }
        Py_ssize_t n = c->visits;
        double q = n ? c->wins / (double)n : fpu;
        if (rave && c->amaf_visits) {
            double beta = sqrt(k / ((double)(3 * n) + k));
            q = (1.0 - beta) * q + beta * (c->amaf_wins / (double)c->amaf_visits);
        }
        double value = q + c_explore * sqrt(log_n / (double)(n + 1));
        if (bias != 0.0) value += bias * c->prior / (double)(n + 1);
        if (value > best_value) {
            best = c;
            best_value = value;
        }
    }
    if (best) return Py_NewRef((PyObject *)best);
    if (!count) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return NULL;
    }
    return Py_NewRef(PyList_GET_ITEM(children, 0));
}

static inline double reward(int person, long outcome) {
    if (outcome == DRAW) return 0.5;
    return outcome == person ? 1.0 : 0.0;
}

static inline int seen_add(uint64_t seen[2][TREE_WORDS], int person, int point) {
    if (person < 0 || person > 1 || point < 0 || point >= TREE_POINTS) {
        PyErr_SetString(PyExc_ValueError, "a placement off the board or by no person");
        return -1;
    }
    seen[person][point >> 6] |= (uint64_t)1 << (point & 63);
    return 0;
}

/* backup(path, played, outcome, rave): ai.tree.backup.  The RAVE update walks each node's
 * children and takes those whose point is in the mover's seen set: the same children as
 * ai.tree's walk over the set bits of seen & point_mask through by_point, which hold exactly
 * the children's points (each child counted once, so the order does not matter). */
static PyObject *backup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyList_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "backup(path: list, played: list, outcome, rave)");
        return NULL;
    }
    PyObject *path = args[0], *played = args[1];
    long outcome = PyLong_AsLong(args[2]);
    if (outcome == -1 && PyErr_Occurred()) return NULL;
    int rave = PyObject_IsTrue(args[3]);
    if (rave < 0) return NULL;
    Py_ssize_t depth = PyList_GET_SIZE(path);
    for (Py_ssize_t i = 0; i < depth; i++)
        if (!as_node(PyList_GET_ITEM(path, i))) return NULL;
    /* The placements first, so that bad input changes nothing. */
    uint64_t seen[2][TREE_WORDS] = {{0}};
    for (Py_ssize_t i = 0; rave && i < PyList_GET_SIZE(played); i++) {
        PyObject *pair = PyList_GET_ITEM(played, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "played holds (point, person) pairs");
            return NULL;
        }
        long point = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        long person = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        if (PyErr_Occurred()) return NULL;
        if (seen_add(seen, (int)person, (int)point) < 0) return NULL;
    }
    for (Py_ssize_t i = 0; i < depth; i++) {
        NodeObject *node = (NodeObject *)PyList_GET_ITEM(path, i);
        node->visits += 1;
        node->wins += reward(node->person, outcome);
    }
    if (!rave) Py_RETURN_NONE;
    for (Py_ssize_t i = depth - 1; i >= 0; i--) {
        NodeObject *node = (NodeObject *)PyList_GET_ITEM(path, i);
        if (i + 1 < depth) {
            NodeObject *step = (NodeObject *)PyList_GET_ITEM(path, i + 1);
            if (step->point >= 0 && seen_add(seen, step->person, step->point) < 0) return NULL;
        }
        if (!PyList_Check(node->children)) continue;
        if (node->mover < 0 || node->mover > 1) {
            PyErr_SetString(PyExc_ValueError, "a node's mover is 0 or 1");
            return NULL;
        }
        const uint64_t *mine = seen[node->mover];
        double r = reward(node->mover, outcome);
        PyObject *children = node->children;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(children); j++) {
            NodeObject *child = as_node(PyList_GET_ITEM(children, j));
            if (!child) return NULL;
            int p = child->point;
            if (p >= 0 && (mine[p >> 6] >> (p & 63) & 1)) {
                child->amaf_visits += 1;
                child->amaf_wins += r;
            }
        }
    }
    Py_RETURN_NONE;
}

/* Called from PyInit: make the type and find random.Random, whose shuffle expand() repeats
 * only while Random._randbelow is the getrandbits one (as in every CPython since 3.2). */
static int tree_init(PyObject *module) {
    if (PyType_Ready(&NodeType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Node", (PyObject *)&NodeType) < 0) return -1;
    PyObject *random = PyImport_ImportModule("random");
    if (!random) return -1;
    PyObject *cls = PyObject_GetAttrString(random, "Random");
    Py_DECREF(random);
    if (!cls) return -1;
    PyObject *used = PyObject_GetAttrString(cls, "_randbelow");
    PyObject *expected = PyObject_GetAttrString(cls, "_randbelow_with_getrandbits");
    PyErr_Clear();
    if (used && used == expected)
        random_type = cls;
    else
        Py_DECREF(cls);
    Py_XDECREF(used);
    Py_XDECREF(expected);
    return 0;
}

#define TREE_METHODS                                                                        \
    {"uct_choice", (PyCFunction)(void (*)(void))uct_choice, METH_FASTCALL,                 \
     "The child to visit next (ai.tree.uct_choice)."},                                     \
        {"backup", (PyCFunction)(void (*)(void))backup, METH_FASTCALL,                      \
         "Count a playout's outcome up the path (ai.tree.backup)."},
