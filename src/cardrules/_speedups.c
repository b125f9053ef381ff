/* cardrules._speedups: the optional C accelerator of cardrules (see cardrules/_hotloops.py).
 *
 * cardrules is a pure-Python library; this module only makes a few things it does at every
 * step of a game faster, and each has a pure-Python twin that gives the same results (the
 * tests compare them, and CI runs the whole suite with and without this module):
 *
 *   coded_subsets(items, codes, base, tables, cls, name) -> tuple
 *       every subset of the tuple `items`, by size (the empty one first) then in
 *       itertools.combinations' order, each as an object.  The small ones are interned,
 *       found by arithmetic rather than by a tuple key: each item's code is codes[item]
 *       (an int from 0 to base - 1), and the subset of size k (for k < len(tables))
 *       whose items have the codes c0, c1, ... c(k-1), in the order of `items`, is
 *       tables[k][rank], rank = ((c0 * base + c1) * base + ...) + c(k-1) (0 for the
 *       empty subset); a missing code, a rank out of range or a None there is a
 *       KeyError.  Larger subsets are new instances of `cls` with its slot `name` set to
 *       the subset tuple (the class must have no other field; no __init__ runs).  Twin:
 *       cardrules._hotloops.coded_subsets_py.
 *
 *   fisher_yates(items, stream) -> None
 *       the swaps of the library's seeded shuffle (cardrules._shuffling) on the list
 *       `items`, in place: the stream (bytes, at least 8 per item but one) read as
 *       big-endian 64-bit draws, and for the t-th draw and i = len - 1 - t, the items
 *       at i and draw % (i + 1) swapped.  Twin: cardrules._hotloops.fisher_yates_py.
 *
 *   same_objects(a, b) -> bool
 *       whether the tuples `a` and `b` hold the same objects (by identity) as many times
 *       each, in any order: the fast half of checking that a Shuffle orders exactly a
 *       chance node's cards (cards are interned, so equal cards are one object; the
 *       caller falls back to comparing by equality when this says no).  Twin:
 *       cardrules._hotloops.same_objects_py.
 *
 * Nothing here knows a game's rules.
 *
 * Threads and interpreters.  The module keeps no state of its own.  Every object it
 * writes into is one it has just allocated and not yet shared (but for the list given to
 * fisher_yates, under that list's critical section without a GIL); it reads other objects
 * only through CPython's own thread-safe calls (the tuples it was given, and
 * PyDict_GetItemRef for the dict of codes without a GIL).  So the free-threaded build
 * (3.13t, compiled without the limited API) declares that it needs no GIL (Py_mod_gil).
 * Built for the full API of 3.12 or later it also declares support for sub-interpreters
 * with their own GIL; the abi3 build cannot (that slot is not in the limited API of
 * 3.10, and 3.10 and 3.11 refuse a slot they do not know), so there such an interpreter
 * does not import it and uses the pure-Python twins.
 *
 * It uses CPython's limited API only (the stable ABI of 3.10 and later: hatch_build.py
 * compiles it with Py_LIMITED_API = 0x030A0000, so that one wheel, tagged cp310-abi3,
 * serves CPython 3.10 to 3.13 and later): a class's slots are found in its own
 * tp_members (PyType_GetSlot) and written with PyMember_SetOne, a new instance comes
 * from the class's tp_alloc (PyType_GetSlot), a class's instance size is its
 * __basicsize__; tuples and lists are read and written
 * through PyTuple_GetItem, PyList_GetItem and PyList_SetItem, never through their
 * structs.  Nothing reads a reference count, an instance's __dict__ or another package's
 * private names.  The free-threaded build of CPython (3.13t) has no stable ABI: there
 * hatch_build.py compiles the same source without Py_LIMITED_API, for that version
 * alone, and the module holds the list's critical section (and swaps its items with
 * PyList_GET_ITEM/PyList_SET_ITEM inside it: see fisher_yates) and declares Py_mod_gil.  An
 * installation without a C compiler simply does not have this module, and cardrules
 * behaves the same without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#ifndef Py_T_OBJECT_EX /* before 3.12: the member API's names in structmember.h */
#include <structmember.h>
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

/* A class's __name__ (what its tp_name says of a class made in Python), a new
 * reference, for an error message: "?" if it has none. */
static PyObject *
name_of(PyTypeObject *cls)
{
    PyObject *name = PyObject_GetAttrString((PyObject *)cls, "__name__");
    if (name == NULL || !PyUnicode_Check(name)) {
        PyErr_Clear();
        Py_XDECREF(name);
        name = PyUnicode_FromString("?");
    }
    return name;
}

/* A class's instance size (its __basicsize__; tp_basicsize is not in the limited API),
 * or -1 with an exception set. */
static Py_ssize_t
basic_size(PyTypeObject *cls)
{
    PyObject *size = PyObject_GetAttrString((PyObject *)cls, "__basicsize__");
    if (size == NULL) {
        return -1;
    }
    Py_ssize_t n = PyLong_AsSsize_t(size);
    Py_DECREF(size);
    return n;
}

#define MAX_ITEMS 16

/* ----------------------------------------------------------------------------------- */
/* a class's own slots                                                                  */

/* The member definition of the slot `name` of `cls` itself: found in the class's own
 * tp_members (read with PyType_GetSlot), the NULL-terminated array of PyMemberDef that
 * CPython makes of a class's __slots__ (a base class's slots are in the base's array, not
 * here), and it must be a writable object slot lying inside an instance of `cls`.  NULL
 * with TypeError set otherwise.  The slot is then written with PyMember_SetOne, as the
 * member descriptor of the slot writes it. */
static PyMemberDef *
own_slot(PyTypeObject *cls, PyObject *name, const char *who)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "%s: a slot's name must be a str", who);
        return NULL;
    }
    const char *text = PyUnicode_AsUTF8AndSize(name, NULL);
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t size = basic_size(cls);
    if (size < 0) {
        return NULL;
    }
    PyMemberDef *member = (PyMemberDef *)PyType_GetSlot(cls, Py_tp_members);
    if (member == NULL && PyErr_Occurred()) {
        return NULL;
    }
    for (; member != NULL && member->name != NULL; member++) {
        if (strcmp(member->name, text) != 0) {
            continue;
        }
        if (member->type == Py_T_OBJECT_EX && !(member->flags & Py_READONLY) && member->offset > 0
            && member->offset + (Py_ssize_t)sizeof(PyObject *) <= size) {
            return member;
        }
        break;
    }
    PyObject *cls_name = name_of(cls);
    if (cls_name != NULL) {
        PyErr_Format(PyExc_TypeError, "%s: %R is not a writable object slot of %U itself", who, name, cls_name);
        Py_DECREF(cls_name);
    }
    return NULL;
}

/* A new instance of `cls`, allocated by the class's own tp_alloc (no __new__ or
 * __init__ runs: the caller fills its slots). */
static PyObject *
alloc_instance(PyTypeObject *cls)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(cls, Py_tp_alloc);
    if (alloc == NULL) {
        PyObject *cls_name = PyErr_Occurred() ? NULL : name_of(cls);
        if (cls_name != NULL) {
            PyErr_Format(PyExc_TypeError, "%U has no tp_alloc", cls_name);
            Py_DECREF(cls_name);
        }
        return NULL;
    }
    return alloc(cls, 0);
}

/* ----------------------------------------------------------------------------------- */
/* coded_subsets                                                                        */

/* A new instance of `cls` whose slot `member` holds `value`. */
static PyObject *
new_with_slot(PyTypeObject *cls, PyMemberDef *member, PyObject *value)
{
    PyObject *obj = alloc_instance(cls);
    if (obj == NULL) {
        return NULL;
    }
    if (PyMember_SetOne((char *)obj, member, value) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    return obj;
}

/* Advance index[0..k) to the next k-combination of 0..n-1 in lexicographic order (the
   rightmost position that can move moves, the ones after it follow); 0 after the last. */
static int
next_combination(Py_ssize_t *index, Py_ssize_t k, Py_ssize_t n)
{
    Py_ssize_t i = k - 1;
    while (i >= 0 && index[i] == n - k + i) {
        i--;
    }
    if (i < 0) {
        return 0;
    }
    index[i]++;
    for (Py_ssize_t j = i + 1; j < k; j++) {
        index[j] = index[j - 1] + 1;
    }
    return 1;
}

/* dict[key] as a new reference; NULL with KeyError (or another error) set. */
static PyObject *
dict_get(PyObject *dict, PyObject *key)
{
#ifdef Py_GIL_DISABLED /* a borrowed reference would not be safe without a GIL */
    PyObject *obj = NULL;
    int found = PyDict_GetItemRef(dict, key, &obj);
    if (found == 0) {
        PyErr_SetObject(PyExc_KeyError, key);
    }
    return found > 0 ? obj : NULL;
#else
    PyObject *obj = PyDict_GetItemWithError(dict, key);
    if (obj == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_KeyError, key);
        }
        return NULL;
    }
    Py_INCREF(obj);
    return obj;
#endif
}

/* The KeyError of coded_subsets for the subset of `k` items at `index` of `item`. */
static void
missing_subset(PyObject **item, Py_ssize_t *index, Py_ssize_t k)
{
    PyObject *subset = PyTuple_New(k);
    if (subset == NULL) {
        return;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyTuple_SetItem(subset, i, Py_NewRef(item[index[i]]));
    }
    /* the exception made here: PyErr_SetObject would take a tuple for its arguments */
    PyObject *error = PyObject_CallFunctionObjArgs(PyExc_KeyError, subset, NULL);
    Py_DECREF(subset);
    if (error != NULL) {
        PyErr_SetObject(PyExc_KeyError, error);
        Py_DECREF(error);
    }
}

static PyObject *
coded_subsets(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "coded_subsets(items, codes, base, tables, cls, name)");
        return NULL;
    }
    PyObject *items = args[0], *codes = args[1], *tables = args[3];
    if (!PyTuple_CheckExact(items)) {
        PyErr_SetString(PyExc_TypeError, "coded_subsets: items must be a tuple");
        return NULL;
    }
    if (!PyDict_CheckExact(codes)) {
        PyErr_SetString(PyExc_TypeError, "coded_subsets: codes must be a dict");
        return NULL;
    }
    Py_ssize_t base = PyLong_AsSsize_t(args[2]);
    if (base == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (base < 1 || base > 1024) {
        PyErr_SetString(PyExc_ValueError, "coded_subsets: base must be from 1 to 1024");
        return NULL;
    }
    if (!PyTuple_CheckExact(tables)) {
        PyErr_SetString(PyExc_TypeError, "coded_subsets: tables must be a tuple of tuples");
        return NULL;
    }
    Py_ssize_t coded_sizes = PyTuple_Size(tables);
    for (Py_ssize_t k = 0; k < coded_sizes; k++) {
        if (!PyTuple_CheckExact(PyTuple_GetItem(tables, k))) {
            PyErr_SetString(PyExc_TypeError, "coded_subsets: tables must be a tuple of tuples");
            return NULL;
        }
    }
    if (!PyType_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "coded_subsets: cls must be a class");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[4];
    PyMemberDef *member = own_slot(cls, args[5], "coded_subsets");
    if (member == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_Size(items);
    if (n > MAX_ITEMS) {
        PyErr_Format(PyExc_ValueError, "coded_subsets: at most %d items", MAX_ITEMS);
        return NULL;
    }
    PyObject *item[MAX_ITEMS]; /* borrowed: the tuple holds them */
    Py_ssize_t code[MAX_ITEMS];
    for (Py_ssize_t i = 0; i < n; i++) {
        item[i] = PyTuple_GetItem(items, i);
        PyObject *c = dict_get(codes, item[i]); /* KeyError when it has no code */
        if (c == NULL) {
            return NULL;
        }
        code[i] = PyLong_AsSsize_t(c);
        Py_DECREF(c);
        if (code[i] == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (code[i] < 0 || code[i] >= base) {
            PyErr_SetObject(PyExc_KeyError, item[i]);
            return NULL;
        }
    }
    PyObject *out = PyTuple_New((Py_ssize_t)1 << n);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t pos = 0;
    Py_ssize_t index[MAX_ITEMS];
    for (Py_ssize_t k = 0; k <= n; k++) {
        PyObject *table = k < coded_sizes ? PyTuple_GetItem(tables, k) : NULL; /* borrowed */
        Py_ssize_t size = table != NULL ? PyTuple_Size(table) : 0;
        for (Py_ssize_t i = 0; i < k; i++) {
            index[i] = i;
        }
        for (;;) {
            PyObject *obj;
            if (table != NULL) {
                Py_ssize_t rank = 0;
                for (Py_ssize_t i = 0; i < k; i++) { /* below size <= PY_SSIZE_T_MAX: no overflow */
                    rank = rank * base + code[index[i]];
                    if (rank >= size) {
                        break;
                    }
                }
                obj = rank < size ? PyTuple_GetItem(table, rank) : NULL; /* borrowed */
                if (obj == NULL || obj == Py_None) {
                    PyErr_Clear();
                    missing_subset(item, index, k);
                    goto fail;
                }
                Py_INCREF(obj);
            }
            else {
                PyObject *subset;
                if (k == n) {
                    subset = Py_NewRef(items);
                }
                else {
                    subset = PyTuple_New(k);
                    if (subset == NULL) {
                        goto fail;
                    }
                    for (Py_ssize_t i = 0; i < k; i++) {
                        PyTuple_SetItem(subset, i, Py_NewRef(item[index[i]]));
                    }
                }
                obj = new_with_slot(cls, member, subset);
                Py_DECREF(subset);
                if (obj == NULL) {
                    goto fail;
                }
            }
            PyTuple_SetItem(out, pos++, obj);
            if (!next_combination(index, k, n)) {
                break;
            }
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ----------------------------------------------------------------------------------- */
/* a list's lock (a critical section without a GIL)                                     */

#ifdef Py_GIL_DISABLED
#define LIST_LOCK(a) Py_BEGIN_CRITICAL_SECTION(a)
#define LIST_UNLOCK() Py_END_CRITICAL_SECTION()
#else
#define LIST_LOCK(a) {
#define LIST_UNLOCK() }
#endif

/* ----------------------------------------------------------------------------------- */
/* fisher_yates                                                                         */

static PyObject *
fisher_yates(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_CheckExact(args[0]) || !PyBytes_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "fisher_yates(items: list, stream: bytes)");
        return NULL;
    }
    PyObject *items = args[0];
    Py_ssize_t n = PyList_Size(items);
    if (n < 2) {
        Py_RETURN_NONE;
    }
    if (PyBytes_Size(args[1]) < 8 * (n - 1)) {
        PyErr_SetString(PyExc_ValueError, "fisher_yates: the stream must hold 8 bytes per item but one");
        return NULL;
    }
    /* The items are swapped in place, as the Python loop does (a new reference to each
       for PyList_SetItem to take over, which drops the list's old one); without a GIL,
       under the list's own critical section (the size read again inside it, and the
       stream, immutable, long enough for it). */
    const unsigned char *stream = (const unsigned char *)PyBytes_AsString(args[1]);
    LIST_LOCK(items);
    Py_ssize_t size = PyList_Size(items);
    for (Py_ssize_t i = (size < n ? size : n) - 1; i > 0; i--, stream += 8) {
        unsigned long long draw = 0;
        for (int b = 0; b < 8; b++) {
            draw = draw << 8 | stream[b];
        }
        Py_ssize_t j = (Py_ssize_t)(draw % (unsigned long long)(i + 1));
        if (i != j) { /* the indices are in range: neither call can fail */
#ifdef Py_GIL_DISABLED
            /* PyList_SetItem takes the list's critical section again, and in CPython
               3.13 a thread that takes one it already holds suspends the outer one while
               it waits, which lets another thread in between the two stores.  So, built
               without the limited API for that interpreter, swap the two pointers under
               the section held here: the list still owns one reference to each item. */
            PyObject *a = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
            PyList_SET_ITEM(items, j, a);
#else
            PyObject *a = Py_NewRef(PyList_GetItem(items, i));
            PyList_SetItem(items, i, Py_NewRef(PyList_GetItem(items, j)));
            PyList_SetItem(items, j, a);
#endif
        }
    }
    LIST_UNLOCK();
    Py_RETURN_NONE;
}

/* ----------------------------------------------------------------------------------- */
/* same_objects                                                                         */

static int
compare_addresses(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return (a > b) - (a < b);
}

static PyObject *
same_objects(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "same_objects(a, b) takes two tuples");
        return NULL;
    }
    Py_ssize_t n = PyTuple_Size(args[0]);
    if (n != PyTuple_Size(args[1])) {
        Py_RETURN_FALSE;
    }
    if (n == 0) {
        Py_RETURN_TRUE;
    }
    /* Tuples never change, so their items can be read without a lock. */
    uintptr_t *addresses = PyMem_New(uintptr_t, 2 * n);
    if (addresses == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        addresses[i] = (uintptr_t)PyTuple_GetItem(args[0], i);
        addresses[n + i] = (uintptr_t)PyTuple_GetItem(args[1], i);
    }
    qsort(addresses, (size_t)n, sizeof(uintptr_t), compare_addresses);
    qsort(addresses + n, (size_t)n, sizeof(uintptr_t), compare_addresses);
    int same = memcmp(addresses, addresses + n, (size_t)n * sizeof(uintptr_t)) == 0;
    PyMem_Free(addresses);
    return PyBool_FromLong(same);
}

/* ----------------------------------------------------------------------------------- */
/* the module: multi-phase initialisation (PEP 489), no state of its own                */

static PyMethodDef speedups_methods[] = {
    {"coded_subsets", (PyCFunction)(void (*)(void))coded_subsets, METH_FASTCALL,
     "Every subset of a tuple, by size then position: the small ones found by their items' codes."},
    {"fisher_yates", (PyCFunction)(void (*)(void))fisher_yates, METH_FASTCALL,
     "fisher_yates(items, stream): the seeded shuffle's swaps of a list, in place, by a byte stream."},
    {"same_objects", (PyCFunction)(void (*)(void))same_objects, METH_FASTCALL,
     "same_objects(a, b): whether two tuples hold the same objects as many times each."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot speedups_slots[] = {
#ifdef Py_mod_multiple_interpreters /* the full API of 3.12+, or a limited API of 3.12+ */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardrules._speedups",
    .m_doc = "The optional C accelerator of cardrules (see cardrules/_hotloops.py).",
    .m_size = 0,
    .m_methods = speedups_methods,
    .m_slots = speedups_slots,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
