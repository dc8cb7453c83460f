/* Python ints <-> arrays of 64-bit words (word 0 holds bits 0-63), for the compiled cores.
 *
 * Both extensions (rules/_ndcore.c and ai/_fastcore.c) take bitboards as Python ints and give
 * them back as Python ints; this is the one place that crossing is written.  Only the public C
 * API is used on every supported version (3.11+): PyLong_AsNativeBytes and
 * PyLong_FromUnsignedNativeBytes where they exist (3.13+); before that, an int of one word
 * is read directly, a wider one through int.to_bytes, and an int is written as hexadecimal
 * text (each the quickest public route measured here).  The private
 * _PyLong_AsByteArray/_PyLong_FromByteArray would be a little quicker there, but they are not
 * part of the API (3.13 changed one's signature): measured, this costs no playouts that the
 * noise of bench/playout_speed.py can show.
 */
#ifndef CROSSPATH_PYINT_WORDS_H
#define CROSSPATH_PYINT_WORDS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A non-negative Python int of at most 64 * nw bits as nw words; -1 with an exception set
 * (TypeError for a non-int, OverflowError for a negative or wider int). */
static inline int pyint_to_words(PyObject *v, uint64_t *w, int nw) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard must be an int");
        return -1;
    }
    memset(w, 0, sizeof(uint64_t) * (size_t)nw);
#if PY_VERSION_HEX >= 0x030D0000
    unsigned char buf[8 * 8];
    if (nw > 8) {
        PyErr_SetString(PyExc_OverflowError, "bitboard too wide");
        return -1;
    }
    Py_ssize_t need = PyLong_AsNativeBytes(
        v, buf, 8 * nw, Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
               Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) return -1;
    if (need > 8 * nw) {
        PyErr_SetString(PyExc_OverflowError, "bitboard wider than 19x19");
        return -1;
    }
    for (int i = 0; i < nw; i++) {
        uint64_t x = 0;
        for (int j = 7; j >= 0; j--) x = x << 8 | buf[i * 8 + j];
        w[i] = x;
    }
    return 0;
#else
    /* Compared with 2**64 first (no allocation, no exception raised and cleared): one word is
     * the common case, and the only one for boards up to 8x8. */
    static PyObject *two_64 = NULL, *sixty_four = NULL;
    if (!two_64) {
        sixty_four = PyLong_FromLong(64);
        PyObject *one = PyLong_FromLong(1);
        two_64 = sixty_four && one ? PyNumber_Lshift(one, sixty_four) : NULL;
        Py_XDECREF(one);
        if (!two_64) return -1;
    }
    int small = PyObject_RichCompareBool(v, two_64, Py_LT);
    if (small < 0) return -1;
    if (small) {
        unsigned long long low = PyLong_AsUnsignedLongLong(v); /* OverflowError if negative */
        if (low == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        w[0] = (uint64_t)low;
        return 0;
    }
    /* At least 2**64, so positive: its bytes, by int.to_bytes (OverflowError if too wide). */
    static PyObject *to_bytes = NULL, *little = NULL;
    if (!to_bytes && !(to_bytes = PyUnicode_InternFromString("to_bytes"))) return -1;
    if (!little && !(little = PyUnicode_InternFromString("little"))) return -1;
    PyObject *length = PyLong_FromLong(8 * nw);
    if (!length) return -1;
    PyObject *call[3] = {v, length, little};
    PyObject *bytes =
        PyObject_VectorcallMethod(to_bytes, call, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(length);
    if (!bytes) return -1;
    const unsigned char *buf = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (int i = 0; i < nw; i++) {
        uint64_t x = 0;
        for (int j = 7; j >= 0; j--) x = x << 8 | buf[i * 8 + j];
        w[i] = x;
    }
    Py_DECREF(bytes);
    return 0;
#endif
}

/* nw words as a non-negative Python int. */
static inline PyObject *words_to_pyint(const uint64_t *w, int nw) {
    int top = nw;
    while (top > 1 && !w[top - 1]) top--;
    if (top == 1) return PyLong_FromUnsignedLongLong((unsigned long long)w[0]);
#if PY_VERSION_HEX >= 0x030D0000
    unsigned char buf[8 * 64];
    if (top > 64) {
        PyErr_SetString(PyExc_OverflowError, "bitboard too wide");
        return NULL;
    }
    for (int i = 0; i < top; i++)
        for (int j = 0; j < 8; j++) buf[i * 8 + j] = (unsigned char)(w[i] >> (8 * j));
    return PyLong_FromUnsignedNativeBytes(buf, (size_t)(8 * top), Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    /* As hexadecimal text, most significant word first: one allocation, where building the
     * int from words takes a shift and an or per word. */
    static const char digits[] = "0123456789abcdef";
    char hex[16 * 64 + 1];
    if (top > 64) {
        PyErr_SetString(PyExc_OverflowError, "bitboard too wide");
        return NULL;
    }
    char *out = hex;
    for (int i = top - 1; i >= 0; i--)
        for (int shift = 60; shift >= 0; shift -= 4) *out++ = digits[w[i] >> shift & 15];
    *out = 0;
    return PyLong_FromString(hex, NULL, 16);
#endif
}

/* len little-endian bytes as a non-negative Python int (len at most 8 * 64). */
static inline PyObject *bytes_to_pyint(const unsigned char *buf, size_t len) {
    uint64_t w[64];
    int nw = (int)((len + 7) / 8);
    if (nw > 64) {
        PyErr_SetString(PyExc_OverflowError, "bitboard too wide");
        return NULL;
    }
    memset(w, 0, sizeof w);
    for (size_t i = 0; i < len; i++) w[i / 8] |= (uint64_t)buf[i] << (8 * (i % 8));
    return words_to_pyint(w, nw ? nw : 1);
}

#endif
