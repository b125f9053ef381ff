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
