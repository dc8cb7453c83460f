/* Both sides' shortest-path points for the search's connection priors (ai.connection
 * .move_priors), on bitboards of W words: included from _fastcore.c after each width's
 * _fastcore_kernels.h, whose on_path (ai.connection.shortest_path_points' mask, already the
 * Minefield playout's) it calls by its width's name.
 *
 * Why: in Clear Path every node the search expands gets these priors, and the two 0-1 searches
 * in Python were a quarter of a level-3 search once the tree and the playouts were compiled.
 */

static PyObject *words_to_int(const uint64_t *words);

/* path_points(n, own, opp, player) -> (own's points, opp's points) */
static PyObject *SFX(path_points)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "path_points(n, own, opp, player)");
        return NULL;
    }
    int n, player;
    SFX(bb) own, opp;
    const SFX(Geo) *g;
    if (int_arg(args[0], &n) < 0 || !(g = SFX(geo)(n))) return NULL;
    if (SFX(to_bb)(args[1], &own) < 0 || SFX(to_bb)(args[2], &opp) < 0) return NULL;
    if (int_arg(args[3], &player) < 0) return NULL;
    if (player != 0 && player != 1) {
        PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return NULL;
    }
    SFX(Paths) *P = PyMem_Malloc(sizeof(SFX(Paths)));
    if (!P) return PyErr_NoMemory();
    P->g = g;
    P->edge[0][0] = g->bottom;
    P->edge[0][1] = g->top;
    P->edge[1][0] = g->left;
    P->edge[1][1] = g->right;
    SFX(bb) found[2] = {SFX(on_path)(P, own, opp, player), SFX(on_path)(P, opp, own, 1 - player)};
    PyMem_Free(P);
    PyObject *masks[2] = {NULL, NULL};
    for (int side = 0; side < 2; side++) {
        uint64_t words[6] = {0};
        for (int i = 0; i < W; i++) words[i] = found[side].w[i];
        masks[side] = words_to_int(words);
    }
    PyObject *result = masks[0] && masks[1] ? PyTuple_Pack(2, masks[0], masks[1]) : NULL;
    Py_XDECREF(masks[0]);
    Py_XDECREF(masks[1]);
    return result;
}
