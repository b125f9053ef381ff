/* cardrules._speedups: optional C versions of two loops that dominate random playouts.
 *
 * Each function has a pure-Python twin that is the reference (cardrules/_hotloops.py);
 * cardrules uses this module only when it was compiled at install time, and the tests
 * check that both give the same results.  Nothing here knows a game's rules.
 *
 *   subset_objects(items, slot, interned, interned_sizes) -> tuple
 *       every subset of the tuple `items`, by size (the empty one first) then in the
 *       lexicographic order of positions (itertools.combinations' order), each as an
 *       object: for a size up to `interned_sizes`, interned[subset tuple]; for a larger
 *       one, a new instance of the class that owns the member descriptor `slot`, with
 *       that slot set to the subset tuple (the class must have no other field).
 *
 *   record_layout(cls, slots, defaults) -> layout
 *   new_record(layout, *values) -> a new instance of cls
 *       new_record fills the slots (member descriptors of cls, in field order) with the
 *       values, the last ones from `defaults` when fewer are given: what the frozen
 *       attrs constructor does for a class whose __init__ only stores its arguments
 *       (cardrules._fastinit checks that), without it.
 *
 *   shuffle(items, getrandbits) -> None
 *       random.Random.shuffle's algorithm on the list `items`, drawing with the given
 *       getrandbits: for i from n-1 down to 1, j = getrandbits(bit length of i+1)
 *       drawn again while j > i, then items[i] and items[j] are swapped.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define MAX_ITEMS 16

/* A new instance of `cls` whose object slot at `offset` holds `value`. */
static PyObject *
new_with_slot(PyTypeObject *cls, Py_ssize_t offset, PyObject *value)
{
    PyObject *obj = cls->tp_alloc(cls, 0);
    if (obj == NULL) {
        return NULL;
    }
    Py_INCREF(value);
    *(PyObject **)((char *)obj + offset) = value;
    return obj;
}

static PyObject *
subset_objects(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "subset_objects(items, slot, interned, interned_sizes)");
        return NULL;
    }
    PyObject *items = args[0], *slot = args[1], *interned = args[2];
    if (!PyTuple_CheckExact(items)) {
        PyErr_SetString(PyExc_TypeError, "subset_objects: items must be a tuple");
        return NULL;
    }
    if (!Py_IS_TYPE(slot, &PyMemberDescr_Type)) {
        PyErr_SetString(PyExc_TypeError, "subset_objects: slot must be a slot's member descriptor");
        return NULL;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)slot)->d_member;
    PyTypeObject *cls = ((PyMemberDescrObject *)slot)->d_common.d_type;
    if (member->type != T_OBJECT_EX || (member->flags & READONLY)) {
        PyErr_SetString(PyExc_TypeError, "subset_objects: slot must be a writable object slot");
        return NULL;
    }
    if (!PyDict_CheckExact(interned)) {
        PyErr_SetString(PyExc_TypeError, "subset_objects: interned must be a dict");
        return NULL;
    }
    Py_ssize_t interned_sizes = PyLong_AsSsize_t(args[3]);
    if (interned_sizes == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if (n > MAX_ITEMS) {
        PyErr_Format(PyExc_ValueError, "subset_objects: at most %d items", MAX_ITEMS);
        return NULL;
    }
    Py_ssize_t offset = member->offset;
    PyObject **item = &PyTuple_GET_ITEM(items, 0);
    PyObject *out = PyTuple_New((Py_ssize_t)1 << n);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t pos = 0;
    Py_ssize_t index[MAX_ITEMS];
    for (Py_ssize_t k = 0; k <= n; k++) {
        /* the first combination of k positions, then the next ones in order */
        for (Py_ssize_t i = 0; i < k; i++) {
            index[i] = i;
        }
        for (;;) {
            PyObject *subset;
            if (k == n) {
                subset = items;
                Py_INCREF(subset);
            }
            else {
                subset = PyTuple_New(k);
                if (subset == NULL) {
                    goto fail;
                }
                for (Py_ssize_t i = 0; i < k; i++) {
                    PyObject *x = item[index[i]];
                    Py_INCREF(x);
                    PyTuple_SET_ITEM(subset, i, x);
                }
            }
            PyObject *obj;
            if (k <= interned_sizes) {
                obj = PyDict_GetItemWithError(interned, subset);
                if (obj == NULL) {
                    if (!PyErr_Occurred()) {
                        PyErr_SetObject(PyExc_KeyError, subset);
                    }
                    Py_DECREF(subset);
                    goto fail;
                }
                Py_INCREF(obj);
            }
            else {
                obj = new_with_slot(cls, offset, subset);
                if (obj == NULL) {
                    Py_DECREF(subset);
                    goto fail;
                }
            }
            Py_DECREF(subset);
            PyTuple_SET_ITEM(out, pos++, obj);
            /* advance to the next combination: the rightmost position that can move */
            Py_ssize_t i = k - 1;
            while (i >= 0 && index[i] == n - k + i) {
                i--;
            }
            if (i < 0) {
                break;
            }
            index[i]++;
            for (Py_ssize_t j = i + 1; j < k; j++) {
                index[j] = index[j - 1] + 1;
            }
        }
    }
    return out;
fail:
    Py_DECREF(out); /* the unset items are NULL, which tuple deallocation skips */
    return NULL;
}

/* A record layout: the class, then for each field its slot's offset. */
typedef struct {
    PyTypeObject *cls;
    PyObject *defaults; /* a tuple for the last fields */
    Py_ssize_t n;
    Py_ssize_t offsets[1]; /* n of them */
} Layout;

static const char *LAYOUT = "cardrules._speedups.layout";

static void
layout_free(PyObject *capsule)
{
    Layout *layout = (Layout *)PyCapsule_GetPointer(capsule, LAYOUT);
    if (layout != NULL) {
        Py_DECREF(layout->cls);
        Py_DECREF(layout->defaults);
        PyMem_Free(layout);
    }
}

static PyObject *
record_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyType_Check(args[0]) || !PyTuple_CheckExact(args[1]) || !PyTuple_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "record_layout(cls, slots: tuple, defaults: tuple)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    if (PyTuple_GET_SIZE(args[2]) > n) {
        PyErr_SetString(PyExc_ValueError, "record_layout: more defaults than slots");
        return NULL;
    }
    Layout *layout = PyMem_Malloc(sizeof(Layout) + (size_t)n * sizeof(Py_ssize_t));
    if (layout == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *slot = PyTuple_GET_ITEM(args[1], i);
        if (!Py_IS_TYPE(slot, &PyMemberDescr_Type) || ((PyMemberDescrObject *)slot)->d_common.d_type != cls
            || ((PyMemberDescrObject *)slot)->d_member->type != T_OBJECT_EX) {
            PyMem_Free(layout);
            PyErr_SetString(PyExc_TypeError, "record_layout: slots must be cls's own object slots");
            return NULL;
        }
        layout->offsets[i] = ((PyMemberDescrObject *)slot)->d_member->offset;
    }
    layout->n = n;
    layout->cls = cls;
    Py_INCREF(cls);
    layout->defaults = args[2];
    Py_INCREF(args[2]);
    PyObject *capsule = PyCapsule_New(layout, LAYOUT, layout_free);
    if (capsule == NULL) {
        Py_DECREF(cls);
        Py_DECREF(args[2]);
        PyMem_Free(layout);
    }
    return capsule;
}

static PyObject *
new_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || !PyCapsule_IsValid(args[0], LAYOUT)) {
        PyErr_SetString(PyExc_TypeError, "new_record(layout, *values): the first argument must be a layout");
        return NULL;
    }
    Layout *layout = (Layout *)PyCapsule_GetPointer(args[0], LAYOUT);
    Py_ssize_t given = nargs - 1, n = layout->n, ndefaults = PyTuple_GET_SIZE(layout->defaults);
    if (given > n || given < n - ndefaults) {
        PyErr_Format(PyExc_TypeError, "%s() takes from %zd to %zd values (%zd given)",
                     layout->cls->tp_name, n - ndefaults, n, given);
        return NULL;
    }
    PyObject *obj = layout->cls->tp_alloc(layout->cls, 0);
    if (obj == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = i < given ? args[1 + i] : PyTuple_GET_ITEM(layout->defaults, i - (n - ndefaults));
        Py_INCREF(value);
        *(PyObject **)((char *)obj + layout->offsets[i]) = value;
    }
    return obj;
}

static PyObject *
shuffle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shuffle(items, getrandbits)");
        return NULL;
    }
    PyObject *items = args[0], *getrandbits = args[1];
    if (!PyList_CheckExact(items)) {
        PyErr_SetString(PyExc_TypeError, "shuffle: items must be a list");
        return NULL;
    }
    PyObject *bits_of[65] = {NULL};
    PyObject *result = NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        size_t n = (size_t)i + 1, k = 0;
        while ((n >> k) != 0) {
            k++; /* the bit length of n */
        }
        if (bits_of[k] == NULL && (bits_of[k] = PyLong_FromSize_t(k)) == NULL) {
            goto done;
        }
        Py_ssize_t j;
        do {
            PyObject *r = PyObject_CallOneArg(getrandbits, bits_of[k]);
            if (r == NULL) {
                goto done;
            }
            j = PyLong_AsSsize_t(r);
            Py_DECREF(r);
            if (j == -1 && PyErr_Occurred()) {
                goto done;
            }
            if (j < 0) {
                PyErr_SetString(PyExc_ValueError, "shuffle: getrandbits gave a negative number");
                goto done;
            }
        } while (j > i);
        if (i >= PyList_GET_SIZE(items)) { /* getrandbits shrank the list: give up cleanly */
            PyErr_SetString(PyExc_RuntimeError, "shuffle: the list changed size");
            goto done;
        }
        PyObject *a = PyList_GET_ITEM(items, i);
        PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
        PyList_SET_ITEM(items, j, a);
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int k = 0; k < 65; k++) {
        Py_XDECREF(bits_of[k]);
    }
    return result;
}

static PyMethodDef speedups_methods[] = {
    {"subset_objects", (PyCFunction)(void (*)(void))subset_objects, METH_FASTCALL,
     "Every subset of a tuple, by size then position, as interned or new one-slot objects."},
    {"record_layout", (PyCFunction)(void (*)(void))record_layout, METH_FASTCALL,
     "The layout new_record needs: a class, its field slots in order, the last fields' defaults."},
    {"new_record", (PyCFunction)(void (*)(void))new_record, METH_FASTCALL,
     "A new instance of a layout's class with its slots filled, without __init__."},
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "random.Random.shuffle's algorithm with the given getrandbits."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "cardrules._speedups",
    "Optional C versions of two hot loops (see cardrules/_hotloops.py).", -1, speedups_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&speedups_module);
}
