/* cardrules._speedups: the optional C accelerator of cardrules (see cardrules/_hotloops.py).
 *
 * cardrules is a pure-Python library; this module only makes a few things it does at every
 * step of a game faster, and each has a pure-Python reference that gives the same
 * results (the tests compare them, and CI runs the whole suite with and without this
 * module):
 *
 *   record_layout(cls, members, defaults, factories, required) -> layout
 *   new_record(layout, **fields) -> a new instance of cls
 *   replace_record(layout, record, **changes) -> a new instance of cls
 *       the record maker of cardrules._records: for a frozen slotted attrs class whose
 *       __init__ only stores its arguments (no converter, validator, __attrs_post_init__
 *       or cached hash: _records checks that), new_record(layout, **fields) is
 *       cls(**fields) and replace_record(layout, r, **changes) is
 *       attrs.evolve(r, **changes), without running attrs' generated __init__.  Fields
 *       are named, never given by position.
 *
 *   subset_objects(items, slot, interned, interned_sizes) -> tuple
 *       every subset of the tuple `items`, by size (the empty one first) then in
 *       itertools.combinations' order, each as an object: for a size up to
 *       `interned_sizes`, interned[subset tuple]; for a larger one, a new instance of the
 *       class that owns the member descriptor `slot`, with that slot set to the subset
 *       tuple (the class must have no other field).  Reference:
 *       cardrules._hotloops.subset_objects_py.
 *
 *   Deal(alphabet, counts, rows, cards=())
 *       a deal in progress of cardrules.integrations.encoding, drawn card by card: the
 *       counts of the alphabet's cards left, the cards drawn, the outcome list of the
 *       next draw (kept until a draw; its tables shared through the dict `rows`), with
 *       draw(k, token), outcomes(k) and counts_at(k).  Reference:
 *       cardrules._hotloops.DealPy.
 *
 *   FirstTable(triples), first_legal(actions, table) -> (dict, list) or None
 *       (token, value) by object identity (the table holds its objects); first_legal is
 *       first_step's dict through such a table and its keys sorted: a decision's first
 *       tokens and legal ids in one call.  References: cardrules._hotloops.FirstTablePy
 *       and first_legal_py.
 *
 *   id_mask(size, ids) -> bytearray
 *       `size` zeros with a 1 at each id: an action mask.  Reference:
 *       cardrules._hotloops.id_mask_py.
 *
 *   hand_step(ids, hand, pending, end, value) -> (dict, list)
 *       the ids (ids[card]) of the cards of `hand` sorted, one copy of each pending
 *       token taken out, each id then once to None, and `end` to `value`; that dict and
 *       its keys: the step of an Eleusis string under way.  Reference:
 *       cardrules._hotloops.hand_step_py.
 *
 *   fisher_yates(items, stream) -> None
 *       the swaps of the library's seeded shuffle (cardrules._shuffling) on the list
 *       `items`, in place: the stream (bytes, at least 8 per item but one) read as
 *       big-endian 64-bit draws, and for the t-th draw and i = len - 1 - t, the items
 *       at i and draw % (i + 1) swapped.  Reference: cardrules._hotloops.fisher_yates_py.
 *
 *   subset_step(ids, end, actions, prefix) -> (dict, list) or None
 *       a choice of any subset of `ids` (tokens), entered as its ids in their order then
 *       `end`, `actions` every subset in itertools.combinations order by size: after the
 *       (not empty) `prefix`, the legal tokens (the ids after its last one, then `end`)
 *       each to the action it completes (None but for `end`), and that list; None if
 *       the prefix is no rising run of ids.  Reference:
 *       cardrules._hotloops.subset_step_py.
 *
 *   subset_root(hand, card_id, actions, end) -> (actions, ids, root, root_legal) or None
 *       where `actions` are every subset of `hand` (at most 16 cards) and the hand's ids
 *       ascend: the parts of the subset tree of an Aegis exchange (its actions as a
 *       tuple, the ids, the root level and its ids with `end`), in one call.
 *       Reference: cardrules._hotloops.subset_root_py.
 *
 *   first_step(actions, pairs) -> dict or None
 *       {token: value for each action, (token, value) = pairs[id(action)]}, or None if
 *       the id of an action is not in `pairs`: the first tokens of a position's legal
 *       actions in the integer encoding, where the game interns its action objects (the
 *       caller keeps them alive, so an id stands for one object).  Reference:
 *       cardrules._hotloops.first_step_py.
 *
 *   LazyDict.make(template, compute, source, at, player) -> a LazyDict (or subclass)
 *       a dict (a subclass of it) holding the template's items, whose values are
 *       computed when first read: a value that is `compute` itself is replaced, when read
 *       through [], by compute(self, key), and the key appended to the list _made.
 *       PettingZoo's observations and infos (cardrules.integrations.pettingzoo), made
 *       and read in one call each.  Reference: cardrules._hotloops.LazyDictPy.
 *       Its refresh_at(at) sets _at and has each key of _made computed again (one call
 *       at each PettingZoo step, for the infos).
 *
 *   LazyChild(cls, template, compute) -> a callable
 *       child(parent, key) is cls.make(template, compute, parent._source, parent._at,
 *       parent._player[key]): the compute of a LazyDict whose values are LazyDicts (the
 *       PettingZoo infos: each agent's info at the current state), called by the
 *       parent's [] without a Python frame.  Reference: cardrules._hotloops.LazyChildPy.
 *
 *   mask_of(new, ids) -> new()
 *       new() (a writable one-dimensional buffer of one-byte zeros: a NumPy int8
 *       array's bound copy) with a 1 at each id: PettingZoo's action mask as an array
 *       of its own in one call.  Reference: cardrules._hotloops.mask_of_py.
 *
 *   same_objects(a, b) -> bool
 *       whether the tuples `a` and `b` hold the same objects (by identity) as many times
 *       each, in any order: the fast half of checking that a Shuffle orders exactly a
 *       chance node's cards (cards are interned, so equal cards are one object; the
 *       caller falls back to comparing by equality when this says no).  Reference:
 *       cardrules._hotloops.same_objects_py.
 *
 *   FastMethod(kind, fallback, drawing=None, terminal=None, subset=None, position=None,
 *              unset=None, infos=None, make=None, enter=None)
 *       a method of a framework's state class (the OpenSpiel state of
 *       cardrules.integrations.openspiel) whose common case is answered in C from the
 *       state's position (`_pos`): the player to act, whether the game is over, a
 *       chance node's outcome list and a card drawn in place; anything else calls
 *       `fallback`, the Python method it stands for.  Three kinds do the same for the
 *       PettingZoo environment: the action mask, the step and last().  Reference:
 *       cardrules._hotloops.FastMethodPy.
 *
 * Nothing here knows a game's rules.
 *
 * Threads and interpreters.  The module keeps no state of its own (a layout is an object
 * owned by its caller), so it declares that it needs no GIL (Py_mod_gil, free-threaded
 * CPython 3.13+) and supports sub-interpreters with their own GIL (3.12+).  Every object
 * it writes into is one it has just allocated and not yet shared (but for a Deal and the
 * list given to fisher_yates, each under its own lock, below); it reads other objects
 * only through CPython's own thread-safe calls (PyMember_GetOne for a record's slots, the
 * tuple it was given, and PyDict_GetItemRef for the interned dict where it exists).  A
 * Deal changes only itself and holds its own critical section while it does (without a
 * GIL); the outcome tables it shares with other deals go through the dict `rows` with
 * PyDict_GetItemRef (3.13+) and PyDict_SetItem.  A FirstTable never changes once made.
 * fisher_yates swaps the items of the list it is given, under that list's critical
 * section without a GIL; subset_step and hand_step read tuples and the encoding's card
 * ids (a dict made once and never changed) and write only their new dict and list.  A
 * LazyDict read through [] writes into itself (the computed value, through PyDict_SetItem,
 * and its list of keys made, under its own critical section without a GIL).  A FastMethod
 * writes what the Python method it stands for writes (a position's slots, through
 * PyMember_SetOne, and the state's attribute `_pos`, through PyObject_SetAttr), no more
 * thread-safe than that method: a framework state is not shared between threads.
 *
 * It uses CPython's member-descriptor structures (not the limited API), so a wheel is
 * built for one CPython version; an installation without a C compiler simply does not
 * have this module, and cardrules behaves the same without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define MAX_ITEMS 16

/* ----------------------------------------------------------------------------------- */
/* subset_objects                                                                       */

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

/* interned[key] as a new reference; NULL with KeyError (or another error) set. */
static PyObject *
interned_get(PyObject *interned, PyObject *key)
{
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *obj = NULL;
    int found = PyDict_GetItemRef(interned, key, &obj);
    if (found == 0) {
        PyErr_SetObject(PyExc_KeyError, key);
    }
    return found > 0 ? obj : NULL;
#else
    PyObject *obj = PyDict_GetItemWithError(interned, key);
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
                subset = Py_NewRef(items);
            }
            else {
                subset = PyTuple_New(k);
                if (subset == NULL) {
                    goto fail;
                }
                for (Py_ssize_t i = 0; i < k; i++) {
                    PyTuple_SET_ITEM(subset, i, Py_NewRef(PyTuple_GET_ITEM(items, index[i])));
                }
            }
            PyObject *obj = k <= interned_sizes ? interned_get(interned, subset)
                                                : new_with_slot(cls, offset, subset);
            Py_DECREF(subset);
            if (obj == NULL) {
                goto fail;
            }
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

/* ----------------------------------------------------------------------------------- */
/* the record maker                                                                     */

/* A record layout: the class, and for each field (in attrs' order) its name, its slot's
 * member definition, and its default: a value, a factory to call, or none. */
typedef struct {
    PyTypeObject *cls;
    PyObject *names;     /* tuple of str */
    PyObject *defaults;  /* tuple: a value, or `required` */
    PyObject *factories; /* tuple: a callable, or None */
    PyObject *required;  /* the marker of "no default" */
    Py_ssize_t n;
    PyMemberDef *members[1]; /* n of them */
} Layout;

static const char *LAYOUT = "cardrules._speedups.layout";

static void
layout_free(PyObject *capsule)
{
    Layout *layout = (Layout *)PyCapsule_GetPointer(capsule, LAYOUT);
    if (layout != NULL) {
        Py_DECREF(layout->cls);
        Py_DECREF(layout->names);
        Py_DECREF(layout->defaults);
        Py_DECREF(layout->factories);
        Py_DECREF(layout->required);
        PyMem_Free(layout);
    }
}

static PyObject *
record_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyType_Check(args[0]) || !PyTuple_CheckExact(args[1]) || !PyTuple_CheckExact(args[2])
        || !PyTuple_CheckExact(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "record_layout(cls, members: tuple, defaults: tuple, factories: tuple, required)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    if (PyTuple_GET_SIZE(args[2]) != n || PyTuple_GET_SIZE(args[3]) != n) {
        PyErr_SetString(PyExc_ValueError, "record_layout: one default and one factory per field");
        return NULL;
    }
    PyObject *names = PyTuple_New(n);
    if (names == NULL) {
        return NULL;
    }
    Layout *layout = PyMem_Malloc(sizeof(Layout) + (size_t)n * sizeof(PyMemberDef *));
    if (layout == NULL) {
        Py_DECREF(names);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *slot = PyTuple_GET_ITEM(args[1], i);
        if (!Py_IS_TYPE(slot, &PyMemberDescr_Type) || ((PyMemberDescrObject *)slot)->d_common.d_type != cls
            || ((PyMemberDescrObject *)slot)->d_member->type != T_OBJECT_EX) {
            PyMem_Free(layout);
            Py_DECREF(names);
            PyErr_SetString(PyExc_TypeError, "record_layout: members must be cls's own object slots");
            return NULL;
        }
        layout->members[i] = ((PyMemberDescrObject *)slot)->d_member;
        PyObject *name = PyUnicode_InternFromString(layout->members[i]->name);
        if (name == NULL) {
            PyMem_Free(layout);
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, i, name);
    }
    layout->n = n;
    layout->cls = (PyTypeObject *)Py_NewRef(cls);
    layout->names = names;
    layout->defaults = Py_NewRef(args[2]);
    layout->factories = Py_NewRef(args[3]);
    layout->required = Py_NewRef(args[4]);
    PyObject *capsule = PyCapsule_New(layout, LAYOUT, layout_free);
    if (capsule == NULL) {
        Py_DECREF(cls);
        Py_DECREF(names);
        Py_DECREF(args[2]);
        Py_DECREF(args[3]);
        Py_DECREF(args[4]);
        PyMem_Free(layout);
    }
    return capsule;
}

static Layout *
get_layout(PyObject *obj)
{
    if (!PyCapsule_IsValid(obj, LAYOUT)) {
        PyErr_SetString(PyExc_TypeError, "the first argument must be a record layout");
        return NULL;
    }
    return (Layout *)PyCapsule_GetPointer(obj, LAYOUT);
}

/* The field index of a keyword, or -1 with TypeError set. */
static Py_ssize_t
field_index(Layout *layout, PyObject *name)
{
    for (Py_ssize_t i = 0; i < layout->n; i++) { /* keywords and field names are interned */
        if (PyTuple_GET_ITEM(layout->names, i) == name) {
            return i;
        }
    }
    for (Py_ssize_t i = 0; i < layout->n; i++) {
        int eq = PyUnicode_Compare(PyTuple_GET_ITEM(layout->names, i), name);
        if (eq == 0) {
            return i;
        }
        if (eq == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    PyErr_Format(PyExc_TypeError, "%s has no field named %R", layout->cls->tp_name, name);
    return -1;
}

/* Fill a fresh object's slots with `values` (new references, all set); steals them. */
static PyObject *
build(Layout *layout, PyObject **values)
{
    PyObject *obj = layout->cls->tp_alloc(layout->cls, 0);
    if (obj == NULL) {
        for (Py_ssize_t i = 0; i < layout->n; i++) {
            Py_DECREF(values[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < layout->n; i++) { /* obj is not shared yet */
        *(PyObject **)((char *)obj + layout->members[i]->offset) = values[i];
    }
    return obj;
}

#define MAX_FIELDS 64

static void
clear_values(Py_ssize_t n, PyObject **values)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(values[i]);
    }
}

/* What new_record and replace_record share: check that the layout fits in `values`
   (MAX_FIELDS slots, all NULL), then put each keyword argument (names `kwnames`, values
   `kwvalues`) in its field's slot, as a new reference.  On error: -1, the slots cleared
   and an exception set naming `who`. */
static int
keyword_values(Layout *layout, const char *who, PyObject *const *kwvalues, PyObject *kwnames, PyObject **values)
{
    if (layout->n > MAX_FIELDS) {
        PyErr_Format(PyExc_ValueError, "%s: too many fields", who);
        return -1;
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; k++) {
        Py_ssize_t i = field_index(layout, PyTuple_GET_ITEM(kwnames, k));
        if (i < 0) {
            clear_values(layout->n, values);
            return -1;
        }
        values[i] = Py_NewRef(kwvalues[k]); /* a keyword cannot be given twice */
    }
    return 0;
}

/* The record from `values` (new references, or NULL for a field not given: its
 * default, or its factory called); steals them. */
static PyObject *
build_with_defaults(Layout *layout, PyObject **values)
{
    Py_ssize_t n = layout->n;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] != NULL) {
            continue;
        }
        PyObject *factory = PyTuple_GET_ITEM(layout->factories, i);
        if (factory != Py_None) {
            if ((values[i] = PyObject_CallNoArgs(factory)) == NULL) {
                goto fail;
            }
            continue;
        }
        PyObject *value = PyTuple_GET_ITEM(layout->defaults, i);
        if (value == layout->required) {
            PyErr_Format(PyExc_TypeError, "%s() is missing the field %R", layout->cls->tp_name,
                         PyTuple_GET_ITEM(layout->names, i));
            goto fail;
        }
        values[i] = Py_NewRef(value);
    }
    return build(layout, values);
fail:
    clear_values(n, values);
    return NULL;
}

static PyObject *
new_record(PyObject *module, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "new_record(layout, **fields): fields are given by name");
        return NULL;
    }
    Layout *layout = get_layout(args[0]);
    if (layout == NULL) {
        return NULL;
    }
    PyObject *values[MAX_FIELDS] = {NULL};
    if (keyword_values(layout, "new_record", args + nargs, kwnames, values) < 0) {
        return NULL;
    }
    return build_with_defaults(layout, values);
}

/* new_record(layout, **fields) for fields known by their indices (`at`, k of them, each
 * once, all below layout->n <= MAX_FIELDS): the record maker's own path, without the
 * keywords' matching (the FastMethod's positions, made at every step). */
static PyObject *
new_record_at(Layout *layout, Py_ssize_t k, const Py_ssize_t *at, PyObject *const *given)
{
    PyObject *values[MAX_FIELDS] = {NULL};
    for (Py_ssize_t i = 0; i < k; i++) {
        values[at[i]] = Py_NewRef(given[i]);
    }
    return build_with_defaults(layout, values);
}

static PyObject *
replace_record(PyObject *module, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "replace_record(layout, record, **changes): changes are given by name");
        return NULL;
    }
    Layout *layout = get_layout(args[0]);
    if (layout == NULL) {
        return NULL;
    }
    PyObject *record = args[1];
    if (!Py_IS_TYPE(record, layout->cls)) {
        PyErr_Format(PyExc_TypeError, "replace_record: expected a %s, not %.200s", layout->cls->tp_name,
                     Py_TYPE(record)->tp_name);
        return NULL;
    }
    Py_ssize_t n = layout->n;
    PyObject *values[MAX_FIELDS] = {NULL};
    if (keyword_values(layout, "replace_record", args + nargs, kwnames, values) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* the record's own value, read as attribute access reads it (thread-safe) */
        if (values[i] == NULL && (values[i] = PyMember_GetOne((const char *)record, layout->members[i])) == NULL) {
            goto fail;
        }
    }
    return build(layout, values);
fail:
    clear_values(n, values);
    return NULL;
}

/* ----------------------------------------------------------------------------------- */
/* the module: multi-phase initialisation (PEP 489), no state of its own                */

/* ----------------------------------------------------------------------------------- */
/* the deal's lock                                                                      */

#ifdef Py_GIL_DISABLED
#define DEAL_LOCK(a) Py_BEGIN_CRITICAL_SECTION(a)
#define DEAL_UNLOCK() Py_END_CRITICAL_SECTION()
#else
#define DEAL_LOCK(a) {
#define DEAL_UNLOCK() }
#endif

/* ----------------------------------------------------------------------------------- */
/* first_step                                                                           */

static PyObject *
first_step(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "first_step(actions, pairs)");
        return NULL;
    }
    PyObject *pairs = args[1];
    if (!PyDict_CheckExact(pairs)) {
        PyErr_SetString(PyExc_TypeError, "first_step: pairs must be a dict");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "first_step: actions must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    PyObject *out = PyDict_New();
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *key = PyLong_FromVoidPtr(items[i]); /* id(action) */
        if (key == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyObject *pair = interned_get(pairs, key);
        Py_DECREF(key);
        if (pair == NULL) {
            Py_CLEAR(out);
            if (PyErr_ExceptionMatches(PyExc_KeyError)) { /* not an interned action */
                PyErr_Clear();
                Py_DECREF(seq);
                Py_RETURN_NONE;
            }
            break;
        }
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "first_step: pairs must map ids to (token, value) tuples");
            Py_DECREF(pair);
            Py_CLEAR(out);
            break;
        }
        if (PyDict_SetItem(out, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1)) < 0) {
            Py_CLEAR(out);
        }
        Py_DECREF(pair);
    }
    Py_DECREF(seq);
    return out;
}

/* ----------------------------------------------------------------------------------- */
/* FirstTable, first_legal                                                              */

/* For each of a few objects (by identity): a token and a value.  An open-addressing
 * table keyed by the objects' addresses; it holds a reference to each object, so an
 * address stands for one object while the table lives. */
typedef struct {
    PyObject *key; /* NULL: empty */
    PyObject *token;
    PyObject *value;
} FirstEntry;

typedef struct {
    PyObject_HEAD
    Py_ssize_t mask, n;
    FirstEntry *entries;
} FirstTableObject;

static inline size_t
first_hash(PyObject *key)
{
    uintptr_t a = (uintptr_t)key;
    return (size_t)((a >> 4) ^ (a >> 13));
}

static FirstEntry *
first_find(FirstTableObject *self, PyObject *key)
{
    size_t mask = (size_t)self->mask, i = first_hash(key) & mask;
    for (;;) {
        FirstEntry *e = &self->entries[i];
        if (e->key == key || e->key == NULL) {
            return e;
        }
        i = (i + 1) & mask;
    }
}

static int
first_table_traverse(FirstTableObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    for (Py_ssize_t i = 0; self->entries != NULL && i <= self->mask; i++) {
        Py_VISIT(self->entries[i].key);
        Py_VISIT(self->entries[i].token);
        Py_VISIT(self->entries[i].value);
    }
    return 0;
}

static int
first_table_clear(FirstTableObject *self)
{
    for (Py_ssize_t i = 0; self->entries != NULL && i <= self->mask; i++) {
        Py_CLEAR(self->entries[i].key);
        Py_CLEAR(self->entries[i].token);
        Py_CLEAR(self->entries[i].value);
    }
    self->n = 0;
    return 0;
}

static void
first_table_dealloc(FirstTableObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    first_table_clear(self);
    PyMem_Free(self->entries);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *
first_table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *triples;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "FirstTable(triples) takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O:FirstTable", &triples)) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(triples, "FirstTable: a sequence of (object, token, value) tuples");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), cap = 8;
    while (cap < 2 * n + 2) {
        cap *= 2;
    }
    FirstTableObject *self = (FirstTableObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    self->entries = PyMem_New(FirstEntry, cap);
    if (self->entries == NULL) {
        Py_DECREF(seq);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    memset(self->entries, 0, (size_t)cap * sizeof(FirstEntry));
    self->mask = cap - 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
            PyErr_SetString(PyExc_TypeError, "FirstTable: a sequence of (object, token, value) tuples");
            Py_DECREF(seq);
            Py_DECREF(self);
            return NULL;
        }
        FirstEntry *e = first_find(self, PyTuple_GET_ITEM(t, 0));
        if (e->key == NULL) {
            e->key = Py_NewRef(PyTuple_GET_ITEM(t, 0));
            self->n++;
        }
        Py_XSETREF(e->token, Py_NewRef(PyTuple_GET_ITEM(t, 1)));
        Py_XSETREF(e->value, Py_NewRef(PyTuple_GET_ITEM(t, 2)));
    }
    Py_DECREF(seq);
    return (PyObject *)self;
}

static Py_ssize_t
first_table_len(FirstTableObject *self)
{
    return self->n;
}

static PyObject *
first_table_get(FirstTableObject *self, PyObject *obj)
{
    FirstEntry *e = first_find(self, obj);
    if (e->key == NULL) {
        Py_RETURN_NONE;
    }
    return PyTuple_Pack(2, e->token, e->value);
}

static PyMethodDef first_table_methods[] = {
    {"get", (PyCFunction)first_table_get, METH_O, "get(obj): (token, value) of obj (by identity), or None."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot first_table_slots[] = {
    {Py_tp_doc, "FirstTable(triples): (token, value) by object identity, for first_legal."},
    {Py_tp_new, first_table_new},
    {Py_tp_dealloc, first_table_dealloc},
    {Py_tp_traverse, first_table_traverse},
    {Py_tp_clear, first_table_clear},
    {Py_tp_methods, first_table_methods},
    {Py_mp_length, first_table_len},
    {0, NULL},
};

static PyType_Spec first_table_spec = {
    .name = "cardrules._speedups.FirstTable",
    .basicsize = sizeof(FirstTableObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = first_table_slots,
};

static PyObject *
first_legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "first_legal(actions, table)");
        return NULL;
    }
    /* (a FirstTable of any interpreter's copy of this module: the type is known by its
     * deallocator, which no other type has) */
    if (Py_TYPE(args[1])->tp_dealloc != (destructor)first_table_dealloc) {
        PyErr_SetString(PyExc_TypeError, "first_legal: table must be a FirstTable");
        return NULL;
    }
    FirstTableObject *table = (FirstTableObject *)args[1];
    PyObject *seq = PySequence_Fast(args[0], "first_legal: actions must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *step = PyDict_New(), *ids = NULL, *out = NULL;
    if (step == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        FirstEntry *e = first_find(table, items[i]);
        if (e->key == NULL) { /* not one of the table's objects */
            out = Py_NewRef(Py_None);
            goto done;
        }
        if (PyDict_SetItem(step, e->token, e->value) < 0) {
            goto done;
        }
    }
    ids = PyDict_Keys(step);
    if (ids == NULL || PyList_Sort(ids) < 0) {
        goto done;
    }
    out = PyTuple_Pack(2, step, ids);
done:
    Py_DECREF(seq);
    Py_XDECREF(step);
    Py_XDECREF(ids);
    return out;
}

/* ----------------------------------------------------------------------------------- */
/* id_mask                                                                 */

static PyObject *
id_mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "id_mask(size, ids)");
        return NULL;
    }
    Py_ssize_t size = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (size == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "id_mask: size must be 0 or more");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[1], "id_mask: ids must be a sequence of ints");
    if (seq == NULL) {
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    char *mask = PyByteArray_AS_STRING(out);
    memset(mask, 0, (size_t)size);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t t = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i), PyExc_IndexError);
        if (t == -1 && PyErr_Occurred()) {
            Py_CLEAR(out);
            break;
        }
        if (t < -size || t >= size) {
            PyErr_SetString(PyExc_IndexError, "id_mask: an id out of range");
            Py_CLEAR(out);
            break;
        }
        mask[t < 0 ? t + size : t] = 1;
    }
    Py_DECREF(seq);
    return out;
}

/* ----------------------------------------------------------------------------------- */
/* hand_step                                                                            */

static int
compare_ssize(const void *x, const void *y)
{
    Py_ssize_t a = *(const Py_ssize_t *)x, b = *(const Py_ssize_t *)y;
    return (a > b) - (a < b);
}

static PyObject *
hand_step(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1]) || !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "hand_step(ids: dict, hand: tuple, pending: tuple, end, value)");
        return NULL;
    }
    PyObject *ids = args[0], *hand = args[1], *pending = args[2], *end = args[3], *value = args[4];
    Py_ssize_t n = PyTuple_GET_SIZE(hand), k = PyTuple_GET_SIZE(pending);
    Py_ssize_t *left = PyMem_New(Py_ssize_t, n > 0 ? n : 1);
    if (left == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *step = NULL, *legal = NULL, *out = NULL;
    /* every card's id first (a KeyError before any TypeError, as the reference) */
    PyObject **found = PyMem_New(PyObject *, n > 0 ? n : 1);
    if (found == NULL) {
        PyMem_Free(left);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* (the dict is the encoding's own, built once and never changed) */
        found[i] = PyDict_GetItemWithError(ids, PyTuple_GET_ITEM(hand, i));
        if (found[i] == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetObject(PyExc_KeyError, PyTuple_GET_ITEM(hand, i));
            }
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_Check(found[i])) {
            PyErr_SetString(PyExc_TypeError, "hand_step: the ids must be ints");
            goto done;
        }
        left[i] = PyLong_AsSsize_t(found[i]);
        if (left[i] == -1 && PyErr_Occurred()) {
            goto done;
        }
    }
    qsort(left, (size_t)n, sizeof(Py_ssize_t), compare_ssize);
    /* each pending token takes out one copy of its id (the first: list.remove) */
    for (Py_ssize_t m = 0; m < k; m++) {
        PyObject *token = PyTuple_GET_ITEM(pending, m);
        if (!PyLong_Check(token)) {
            PyErr_SetString(PyExc_TypeError, "hand_step: the pending tokens must be ints");
            goto done;
        }
        Py_ssize_t t = PyLong_AsSsize_t(token);
        if (t == -1 && PyErr_Occurred()) {
            goto done;
        }
        Py_ssize_t at = 0;
        while (at < n && left[at] != t) {
            at++;
        }
        if (at == n) {
            PyErr_SetString(PyExc_ValueError, "hand_step: a pending token is not in the hand");
            goto done;
        }
        memmove(left + at, left + at + 1, (size_t)(n - at - 1) * sizeof(Py_ssize_t));
        n--;
    }
    step = PyDict_New();
    if (step == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i > 0 && left[i] == left[i - 1]) {
            continue; /* each id once */
        }
        PyObject *id = PyLong_FromSsize_t(left[i]);
        if (id == NULL || PyDict_SetItem(step, id, Py_None) < 0) {
            Py_XDECREF(id);
            goto done;
        }
        Py_DECREF(id);
    }
    if (PyDict_SetItem(step, end, value) < 0) {
        goto done;
    }
    legal = PyDict_Keys(step);
    if (legal == NULL) {
        goto done;
    }
    out = PyTuple_Pack(2, step, legal);
done:
    PyMem_Free(left);
    PyMem_Free(found);
    Py_XDECREF(step);
    Py_XDECREF(legal);
    return out;
}

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
    Py_ssize_t n = PyList_GET_SIZE(items);
    if (n < 2) {
        Py_RETURN_NONE;
    }
    if (PyBytes_GET_SIZE(args[1]) < 8 * (n - 1)) {
        PyErr_SetString(PyExc_ValueError, "fisher_yates: the stream must hold 8 bytes per item but one");
        return NULL;
    }
    /* The items are swapped in place, as the Python loop does, without a reference
       count changing; without a GIL, under the list's own critical section (the size
       read again inside it, and the stream, immutable, long enough for it). */
    const unsigned char *stream = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    DEAL_LOCK(items)
    Py_ssize_t size = PyList_GET_SIZE(items);
    PyObject **item = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = (size < n ? size : n) - 1; i > 0; i--, stream += 8) {
        unsigned long long draw = 0;
        for (int b = 0; b < 8; b++) {
            draw = draw << 8 | stream[b];
        }
        Py_ssize_t j = (Py_ssize_t)(draw % (unsigned long long)(i + 1));
        PyObject *swap = item[i];
        item[i] = item[j];
        item[j] = swap;
    }
    DEAL_UNLOCK()
    Py_RETURN_NONE;
}

/* ----------------------------------------------------------------------------------- */
/* subset_step                                                                          */

#define SUBSET_MAX_ITEMS 16 /* as cardrules._hotloops.SUBSET_MAX_IDS */

static PyObject *
subset_step(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyTuple_Check(args[0]) || !PyTuple_Check(args[2]) || !PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "subset_step(ids: tuple, end, actions: tuple, prefix: tuple)");
        return NULL;
    }
    PyObject *ids = args[0], *end = args[1], *actions = args[2], *prefix = args[3];
    Py_ssize_t n = PyTuple_GET_SIZE(ids), k = PyTuple_GET_SIZE(prefix);
    if (n > SUBSET_MAX_ITEMS) {
        PyErr_SetString(PyExc_ValueError, "subset_step: at most 16 ids");
        return NULL;
    }
    if (k == 0) {
        PyErr_SetString(PyExc_ValueError, "subset_step: the prefix must not be empty");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        if (!PyLong_Check(PyTuple_GET_ITEM(ids, j))) {
            PyErr_SetString(PyExc_TypeError, "subset_step: ids must be ints");
            return NULL;
        }
    }
    /* the place of each token in ids (the last equal one, as a dict of them keeps); the
       places must rise, so the prefix is at most n long */
    Py_ssize_t places[SUBSET_MAX_ITEMS];
    Py_ssize_t last = -1;
    for (Py_ssize_t m = 0; m < k; m++) {
        if (m >= n) {
            Py_RETURN_NONE;
        }
        PyObject *token = PyTuple_GET_ITEM(prefix, m);
        if (!PyLong_Check(token)) {
            Py_RETURN_NONE;
        }
        Py_ssize_t found = -1;
        for (Py_ssize_t j = n - 1; j >= 0; j--) {
            int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(ids, j), token, Py_EQ);
            if (eq < 0) {
                return NULL;
            }
            if (eq) {
                found = j;
                break;
            }
        }
        if (found <= last) {
            Py_RETURN_NONE; /* not in the hand, or not after the previous card */
        }
        places[m] = last = found;
    }
    /* the subset's place in itertools.combinations order by size, the empty one first */
    unsigned long long binom[SUBSET_MAX_ITEMS + 1][SUBSET_MAX_ITEMS + 1];
    for (Py_ssize_t a = 0; a <= n; a++) {
        binom[a][0] = 1;
        for (Py_ssize_t b = 1; b <= a; b++) {
            binom[a][b] = binom[a - 1][b - 1] + (b < a ? binom[a - 1][b] : 0);
        }
    }
    unsigned long long i = 0;
    for (Py_ssize_t size = 0; size < k; size++) {
        i += binom[n][size];
    }
    for (Py_ssize_t m = 0, v = 0; m < k; m++, v++) {
        for (; v < places[m]; v++) {
            Py_ssize_t rest = n - 1 - v, want = k - 1 - m;
            i += rest >= want ? binom[rest][want] : 0;
        }
    }
    if (i >= (unsigned long long)PyTuple_GET_SIZE(actions)) {
        PyErr_SetString(PyExc_IndexError, "subset_step: actions must hold every subset of ids");
        return NULL;
    }
    PyObject *legal = PyList_New(n - last);
    if (legal == NULL) {
        return NULL;
    }
    for (Py_ssize_t j = last + 1; j < n; j++) {
        PyList_SET_ITEM(legal, j - last - 1, Py_NewRef(PyTuple_GET_ITEM(ids, j)));
    }
    PyList_SET_ITEM(legal, n - last - 1, Py_NewRef(end));
    PyObject *level = PyDict_New();
    if (level == NULL) {
        Py_DECREF(legal);
        return NULL;
    }
    for (Py_ssize_t j = last + 1; j < n; j++) {
        if (PyDict_SetItem(level, PyTuple_GET_ITEM(ids, j), Py_None) < 0) {
            goto fail;
        }
    }
    if (PyDict_SetItem(level, end, PyTuple_GET_ITEM(actions, (Py_ssize_t)i)) < 0) {
        goto fail;
    }
    PyObject *out = PyTuple_New(2);
    if (out == NULL) {
        goto fail;
    }
    PyTuple_SET_ITEM(out, 0, level);
    PyTuple_SET_ITEM(out, 1, legal);
    return out;
fail:
    Py_DECREF(level);
    Py_DECREF(legal);
    return NULL;
}

/* ----------------------------------------------------------------------------------- */
/* same_objects                                                                         */

/* subset_root(hand, card_id, actions, end): where `actions` (a list or tuple) are every
 * subset of `hand` (a tuple of at most 16 items: 2**len(hand) actions, the first one's
 * `cards` empty, the last one's equal to the hand) and the hand's ids (card_id[card],
 * ints) ascend: (actions as a tuple, the ids as a tuple, {id: None for each id, end:
 * actions[0]}, [*ids, end]); None where that is not so.  Reference:
 * cardrules._hotloops.subset_root_py. */
static PyObject *
subset_root(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyTuple_Check(args[0]) || !PyDict_Check(args[1])
        || !(PyList_Check(args[2]) || PyTuple_Check(args[2]))) {
        PyErr_SetString(PyExc_TypeError, "subset_root(hand: tuple, card_id: dict, actions: list or tuple, end)");
        return NULL;
    }
    PyObject *hand = args[0], *card_id = args[1], *end = args[3];
    Py_ssize_t n = PyTuple_GET_SIZE(hand);
    PyObject *actions = PySequence_Tuple(args[2]); /* (a tuple: the same one) */
    if (actions == NULL) {
        return NULL;
    }
    PyObject *ids = NULL, *root = NULL, *legal = NULL, *result = NULL;
    if (n > SUBSET_MAX_ITEMS || PyTuple_GET_SIZE(actions) != ((Py_ssize_t)1 << n)) {
        goto none;
    }
    PyObject *name = PyUnicode_InternFromString("cards");
    if (name == NULL) {
        goto done;
    }
    PyObject *first = PyObject_GetAttr(PyTuple_GET_ITEM(actions, 0), name);
    PyObject *last = first == NULL ? NULL : PyObject_GetAttr(PyTuple_GET_ITEM(actions, PyTuple_GET_SIZE(actions) - 1), name);
    Py_DECREF(name);
    int empty = first == NULL ? -1 : PyObject_Not(first);
    int whole = last == NULL || empty < 0 ? -1 : PyObject_RichCompareBool(last, hand, Py_EQ);
    Py_XDECREF(first);
    Py_XDECREF(last);
    if (empty < 0 || whole < 0) {
        goto done;
    }
    if (!empty || !whole) {
        goto none;
    }
    if ((ids = PyTuple_New(n)) == NULL || (legal = PyList_New(n + 1)) == NULL || (root = PyDict_New()) == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = PyObject_GetItem(card_id, PyTuple_GET_ITEM(hand, i));
        if (id == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(ids, i, id);
        PyList_SET_ITEM(legal, i, Py_NewRef(id));
    }
    for (Py_ssize_t i = 1; i < n; i++) { /* (all read first, as the reference does) */
        int rising = PyObject_RichCompareBool(PyTuple_GET_ITEM(ids, i - 1), PyTuple_GET_ITEM(ids, i), Py_LE);
        if (rising <= 0) {
            if (rising < 0) {
                goto done;
            }
            goto none;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyDict_SetItem(root, PyTuple_GET_ITEM(ids, i), Py_None) < 0) {
            goto done;
        }
    }
    PyList_SET_ITEM(legal, n, Py_NewRef(end));
    if (PyDict_SetItem(root, end, PyTuple_GET_ITEM(actions, 0)) < 0) {
        goto done;
    }
    result = PyTuple_Pack(4, actions, ids, root, legal);
    goto done;
none:
    result = Py_NewRef(Py_None);
done:
    Py_DECREF(actions);
    Py_XDECREF(ids);
    Py_XDECREF(root);
    Py_XDECREF(legal);
    return result;
}

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
    Py_ssize_t n = PyTuple_GET_SIZE(args[0]);
    if (n != PyTuple_GET_SIZE(args[1])) {
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
        addresses[i] = (uintptr_t)PyTuple_GET_ITEM(args[0], i);
        addresses[n + i] = (uintptr_t)PyTuple_GET_ITEM(args[1], i);
    }
    qsort(addresses, (size_t)n, sizeof(uintptr_t), compare_addresses);
    qsort(addresses + n, (size_t)n, sizeof(uintptr_t), compare_addresses);
    int same = memcmp(addresses, addresses + n, (size_t)n * sizeof(uintptr_t)) == 0;
    PyMem_Free(addresses);
    return PyBool_FromLong(same);
}

/* ----------------------------------------------------------------------------------- */
/* Deal                                                                                 */

/* A deal in progress, drawn card by card (see cardrules._hotloops.DealPy, the
 * reference): the counts of the alphabet's cards left, the cards drawn, the ids drawn
 * since it was made, and the outcome list of the next draw, kept until a draw. */
typedef struct {
    PyObject_HEAD
    PyObject *alphabet; /* tuple of the cards, by id */
    PyObject *rows;     /* dict: cards left -> outcome table (shared by the caller's deals) */
    PyObject *cards;    /* list of the cards drawn, never handed out */
    PyObject *out;      /* the outcome list at the end of the draw, or NULL */
    Py_ssize_t size, left, most, start, ntokens;
    Py_ssize_t *counts; /* size of them */
    Py_ssize_t *tokens; /* ntokens of them; room for every card left when made */
} DealObject;

static int
deal_traverse(DealObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->alphabet);
    Py_VISIT(self->rows);
    Py_VISIT(self->cards);
    Py_VISIT(self->out);
    return 0;
}

static int
deal_clear(DealObject *self)
{
    Py_CLEAR(self->alphabet);
    Py_CLEAR(self->rows);
    Py_CLEAR(self->cards);
    Py_CLEAR(self->out);
    return 0;
}

static void
deal_dealloc(DealObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    deal_clear(self);
    PyMem_Free(self->counts);
    PyMem_Free(self->tokens);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *
deal_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"alphabet", "counts", "rows", "cards", NULL};
    PyObject *alphabet, *counts, *rows, *cards = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OO!|O:Deal", names, &PyTuple_Type, &alphabet, &counts,
                                     &PyDict_Type, &rows, &cards)) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(counts, "Deal: counts must be a sequence of ints");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(alphabet);
    if (PySequence_Fast_GET_SIZE(seq) != size) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "Deal: one count per card of the alphabet");
        return NULL;
    }
    DealObject *self = (DealObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    self->size = size;
    self->counts = PyMem_New(Py_ssize_t, size > 0 ? size : 1);
    if (self->counts == NULL) {
        Py_DECREF(seq);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Py_ssize_t left = 0, most = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_ssize_t n = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i), NULL); /* clipped: then too big */
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            Py_DECREF(self);
            return NULL;
        }
        if (n < 0 || n > PY_SSIZE_T_MAX / 4 / (size + 1) - left) {
            Py_DECREF(seq);
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "Deal: counts must be from 0 to a deck's size");
            return NULL;
        }
        self->counts[i] = n;
        left += n;
        most = n > most ? n : most;
    }
    Py_DECREF(seq);
    self->left = left;
    self->most = most;
    self->tokens = PyMem_New(Py_ssize_t, left > 0 ? left : 1);
    if (self->tokens == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->cards = cards == NULL ? PyList_New(0) : PySequence_List(cards);
    if (self->cards == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->start = PyList_GET_SIZE(self->cards);
    self->alphabet = Py_NewRef(alphabet);
    self->rows = Py_NewRef(rows);
    return (PyObject *)self;
}

/* The outcome table for `self->left` cards left, from rows or made (and kept there). */
static PyObject *
deal_table(DealObject *self)
{
    Py_ssize_t size = self->size, total = self->left, need = (self->most + 1) * size;
    PyObject *key = PyLong_FromSsize_t(total);
    if (key == NULL) {
        return NULL;
    }
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *table = NULL;
    if (PyDict_GetItemRef(self->rows, key, &table) < 0) {
        Py_DECREF(key);
        return NULL;
    }
#else
    PyObject *table = PyDict_GetItemWithError(self->rows, key);
    if (table == NULL && PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    Py_XINCREF(table);
#endif
    if (table != NULL && PyTuple_CheckExact(table) && PyTuple_GET_SIZE(table) >= need) {
        Py_DECREF(key);
        return table;
    }
    Py_XDECREF(table);
    table = PyTuple_New(need);
    for (Py_ssize_t c = 0, j = 0; table != NULL && c <= self->most; c++) {
        for (Py_ssize_t i = 0; i < size; i++, j++) {
            PyObject *pair = Py_BuildValue("(nd)", i, (double)c / (double)total);
            if (pair == NULL) {
                Py_CLEAR(table);
                break;
            }
            PyTuple_SET_ITEM(table, j, pair);
        }
    }
    if (table != NULL && PyDict_SetItem(self->rows, key, table) < 0) {
        Py_CLEAR(table);
    }
    Py_DECREF(key);
    return table;
}

static int
deal_at_end(DealObject *self, PyObject *k)
{
    Py_ssize_t at = PyNumber_AsSsize_t(k, PyExc_OverflowError);
    if (at == -1 && PyErr_Occurred()) {
        return -1;
    }
    return at == PyList_GET_SIZE(self->cards);
}

static PyObject *
deal_outcomes_method(DealObject *self, PyObject *k)
{
    PyObject *result = NULL;
    DEAL_LOCK(self)
    int end = deal_at_end(self, k);
    if (end <= 0) {
        result = end < 0 ? NULL : Py_NewRef(Py_None);
        goto done;
    }
    if (self->out == NULL) {
        /* a list of the exact length, filled in place (no append, no regrowth) */
        Py_ssize_t size = self->size, distinct = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            distinct += self->counts[i] != 0;
        }
        PyObject *table = NULL;
        if (distinct > 0) {
            table = deal_table(self);
            if (table == NULL) {
                goto done;
            }
        }
        PyObject *out = PyList_New(distinct);
        if (out == NULL) {
            Py_XDECREF(table);
            goto done;
        }
        for (Py_ssize_t i = 0, j = 0; j < distinct; i++) {
            Py_ssize_t n = self->counts[i];
            if (n) {
                PyList_SET_ITEM(out, j++, Py_NewRef(PyTuple_GET_ITEM(table, n * size + i)));
            }
        }
        Py_XDECREF(table);
        self->out = out;
    }
    result = Py_NewRef(self->out);
done:
    DEAL_UNLOCK()
    return result;
}

static PyObject *
deal_draw_method(DealObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "draw(k, token)");
        return NULL;
    }
    PyObject *result = NULL;
    DEAL_LOCK(self)
    int end = deal_at_end(self, args[0]);
    if (end <= 0 || self->left <= 1) {
        result = end < 0 ? NULL : Py_NewRef(Py_False);
        goto done;
    }
    Py_ssize_t token = -1;
    if (PyIndex_Check(args[1])) {
        token = PyNumber_AsSsize_t(args[1], NULL); /* clipped when huge: then out of range */
        if (token == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                goto done;
            }
            PyErr_Clear();
        }
    }
    if (token < 0 || token >= self->size || self->counts[token] <= 0) {
        result = Py_NewRef(Py_False);
        goto done;
    }
    if (PyList_Append(self->cards, PyTuple_GET_ITEM(self->alphabet, token)) < 0) {
        goto done;
    }
    self->counts[token] -= 1;
    self->tokens[self->ntokens++] = token;
    self->left -= 1;
    Py_CLEAR(self->out);
    result = Py_NewRef(Py_True);
done:
    DEAL_UNLOCK()
    return result;
}

static PyObject *
deal_counts_list(DealObject *self, Py_ssize_t back)
{
    /* the counts before the last `back` draws of this deal */
    PyObject *out = PyList_New(self->size);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t *counts = PyMem_New(Py_ssize_t, self->size > 0 ? self->size : 1);
    if (counts == NULL) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    memcpy(counts, self->counts, (size_t)self->size * sizeof(Py_ssize_t));
    for (Py_ssize_t j = self->ntokens - back; j < self->ntokens; j++) {
        counts[self->tokens[j]] += 1;
    }
    for (Py_ssize_t i = 0; i < self->size; i++) {
        PyObject *n = PyLong_FromSsize_t(counts[i]);
        if (n == NULL) {
            PyMem_Free(counts);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, n);
    }
    PyMem_Free(counts);
    return out;
}

static PyObject *
deal_counts_at(DealObject *self, PyObject *k)
{
    Py_ssize_t at = PyNumber_AsSsize_t(k, PyExc_OverflowError);
    if (at == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *result = NULL;
    DEAL_LOCK(self)
    Py_ssize_t drawn = PyList_GET_SIZE(self->cards);
    if (at < self->start || at > drawn) {
        PyErr_SetString(PyExc_ValueError, "counts_at: k must be from the deal's start to the cards drawn");
    }
    else {
        result = deal_counts_list(self, drawn - at);
    }
    DEAL_UNLOCK()
    return result;
}

static PyObject *
deal_get_counts(DealObject *self, void *closure)
{
    PyObject *result;
    DEAL_LOCK(self)
    result = deal_counts_list(self, 0);
    DEAL_UNLOCK()
    return result;
}

static PyObject *
deal_get_cards(DealObject *self, void *closure)
{
    return PySequence_List(self->cards);
}

static PyObject *
deal_get_tokens(DealObject *self, void *closure)
{
    PyObject *out;
    DEAL_LOCK(self)
    out = PyList_New(self->ntokens);
    for (Py_ssize_t j = 0; out != NULL && j < self->ntokens; j++) {
        PyObject *t = PyLong_FromSsize_t(self->tokens[j]);
        if (t == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, j, t);
    }
    DEAL_UNLOCK()
    return out;
}

static PyObject *
deal_get_drawn(DealObject *self, void *closure)
{
    return PyLong_FromSsize_t(PyList_GET_SIZE(self->cards));
}

static PyGetSetDef deal_getset[] = {
    {"cards", (getter)deal_get_cards, NULL, "The cards drawn so far, in order (a new list).", NULL},
    {"counts", (getter)deal_get_counts, NULL, "How many of each card are left (a new list).", NULL},
    {"tokens", (getter)deal_get_tokens, NULL, "The ids drawn since the deal was made (a new list).", NULL},
    {"drawn", (getter)deal_get_drawn, NULL, "How many cards are drawn.", NULL},
    {NULL},
};

static PyMemberDef deal_members[] = {
    {"left", T_PYSSIZET, offsetof(DealObject, left), READONLY, "How many cards are left."},
    {"most", T_PYSSIZET, offsetof(DealObject, most), READONLY, "The most copies of a card when made."},
    {"start", T_PYSSIZET, offsetof(DealObject, start), READONLY, "The cards drawn when made."},
    {NULL},
};

static PyMethodDef deal_methods[] = {
    {"outcomes", (PyCFunction)deal_outcomes_method, METH_O,
     "outcomes(k): the outcome list of the next draw if k is the number drawn, else None."},
    {"draw", (PyCFunction)(void (*)(void))deal_draw_method, METH_FASTCALL,
     "draw(k, token): draw card `token` if k is the number drawn and more than one is left."},
    {"counts_at", (PyCFunction)deal_counts_at, METH_O, "counts_at(k): the counts after k cards drawn."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot deal_slots[] = {
    {Py_tp_doc, "Deal(alphabet, counts, rows, cards=()): a deal in progress, drawn card by card."},
    {Py_tp_new, deal_new},
    {Py_tp_dealloc, deal_dealloc},
    {Py_tp_traverse, deal_traverse},
    {Py_tp_clear, deal_clear},
    {Py_tp_methods, deal_methods},
    {Py_tp_members, deal_members},
    {Py_tp_getset, deal_getset},
    {0, NULL},
};

static PyType_Spec deal_spec = {
    .name = "cardrules._speedups.Deal",
    .basicsize = sizeof(DealObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = deal_slots,
};

/* ----------------------------------------------------------------------------------- */
/* FastMethod (a framework state's method, its common case in C)                       */

static PyObject *mask_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
static int lazy_parts(PyObject *obj, PyObject **source, PyObject **at, PyObject **player);
typedef struct FastMethodObject FastMethodObject;
static PyObject *fast_extend(FastMethodObject *self, PyObject *pos, PyObject *action);
static PyObject *fast_enter(FastMethodObject *self, PyObject *enc, PyObject *after);
static int is_lazy_type(PyTypeObject *tp);
static PyObject *lazy_at(PyObject *obj);
#define is_lazy(obj) is_lazy_type(Py_TYPE(obj))

/* A method of a framework's state class (the OpenSpiel state of
 * cardrules.integrations.openspiel) whose common case is answered in C from the position
 * the state keeps as its attribute `_pos`; every other case calls `fallback`, the Python
 * function it stands for, with the same arguments.  As a class attribute it binds like a
 * function (instance.name is a bound method), and it is no PyCFunction, so pybind11
 * takes it for a Python override.  The kinds:
 *   "current_player" (state): pos.player_id unless that is None;
 *   "is_terminal" (state): pos.player_id == terminal unless player_id is None;
 *   "chance_outcomes" (state): where type(pos) is `drawing` and pos._deal is a Deal,
 *       pos._deal.outcomes(pos._k) unless that is None;
 *   "apply_action" (state, action): where type(pos) is `drawing` and pos._deal is a
 *       Deal, if pos._deal.draw(pos._k, action) is true: pos._k += 1,
 *       pos._outcomes = None, and None is returned; at a position without a deal whose
 *       _step (a dict) holds the action: with enc = state._enc, state._pos is set to
 *       enc._extend(pos, action) where the step's value is None, else to
 *       enc.enter(enc._apply(pos.state, value)), and None is returned (where `enter`
 *       is given, the positions made as "env_step" makes them, below, the action an
 *       exact int);
 *   "legal_actions" (state, player): where pos.player_id is not None and equals
 *       player: pos._legal unless that is None; else, where nothing is pending or worked
 *       out yet (pos.pending == (), pos._step and pos._trie None), enc = state._enc has
 *       first pairs (enc._first_pair true) and the state is not in enc._tree_phase
 *       (None, or state.phase != it): found = first_legal(enc._legal_of(state),
 *       enc._first_table); if found is not None, pos._step and pos._legal are set from
 *       it and the list returned, else enc._legal(pos) is returned; in the tree phase,
 *       enc._tree_legal(pos) unless that is None (then enc._legal(pos)); where tokens
 *       are pending, pos._step is None and type(pos._trie) is `subset`:
 *       subset_step(tree._ids, tree._end, tree._actions, pending), kept on the position
 *       as above, unless it is None;
 *   "action_mask" (obs, key): the compute of a PettingZoo observation (a LazyDict whose
 *       _source is (enc, new_mask, legal_of, first_table, tree_phase), _at the position
 *       and _player the player), where key is "action_mask", pos._who is not `unset` and
 *       equals the player: mask_of(new_mask, ids), ids pos._legal unless that is None;
 *       else, where tokens are pending, the subset step as for "legal_actions" (where
 *       the trie is no `subset` one and nothing is worked out: enc._pending_legal(pos),
 *       kept on the position unless it is None); where
 *       nothing is pending or worked out, first_table is not None and the state is not
 *       in tree_phase: first_legal(legal_of(state), first_table) kept on the position
 *       (enc._legal(pos) where it is None); in tree_phase, enc._tree_legal(pos) unless
 *       that is None.  Anything else: the fallback;
 *   "env_step" (env, action): a PettingZoo environment's step (the raw_env of
 *       cardrules.integrations.pettingzoo), where the action is an int, the agent
 *       selected is neither terminated nor truncated (both False), env.position is a
 *       `position` whose _step (a dict) holds the action: env._cumulative_rewards[agent]
 *       = 0.0; with enc = env.encoding, env.position becomes enc._extend(pos, action)
 *       where the step's value is None (and if type(env.infos) is `infos` and no value of
 *       env.rewards is true, that is all), else enc.enter(enc._apply(pos.state, value));
 *       then, where the new position's _who is an int in range of env.possible_agents
 *       and type(env.infos) is `infos`: env.agent_selection = possible_agents[who],
 *       env.infos.refresh_at(state) unless the infos are at that state already, and
 *       env._accumulate_rewards() where a value of env.rewards is true; any other new
 *       position goes to env._settle(pos).  Returns None.  Where `enter` is a tuple
 *       (layout, chance), `layout` the positions' record layout, the positions are made
 *       with the record maker as enc._extend and enc.enter make them (enc.enter itself
 *       where the state is over, enc._truncates is true or the state's to_act is
 *       `chance`; a state whose to_act is an int is taken as not over, the protocol's
 *       to_act being None at the end, so its is_over is not read there);
 *   "env_last" (env, observe=True): the environment's last(), where `make` is a tuple
 *       (maker, template, compute[, made]) and env._index, env._cumulative_rewards,
 *       env.terminations and env.truncations are dicts: with agent =
 *       env.agent_selection, (maker(template, compute, env._obs_source, env.position,
 *       env._index[agent][, made]), env._cumulative_rewards[agent], env.terminations[agent],
 *       env.truncations[agent], env.infos[agent]); the observation None where observe
 *       is False.
 * Errors of those reads and calls are raised as the fallback would raise them.
 * Reference: cardrules._hotloops.FastMethodPy. */

enum { FAST_PLAYER, FAST_TERMINAL, FAST_OUTCOMES, FAST_DRAW, FAST_LEGAL, FAST_MASK, FAST_STEP, FAST_LAST };

static const char *const FAST_KINDS[] = {"current_player", "is_terminal", "chance_outcomes", "apply_action",
                                         "legal_actions", "action_mask", "env_step", "env_last", NULL};

/* the attribute names FastMethod reads, in order (interned once per FastMethod) */
enum { S_POS, S_PLAYER_ID, S_DEAL, S_K, S_OUTCOMES, S_STEP, S_ENC, S_EXTEND, S_ENTER, S_APPLY, S_STATE,
       S_LEGAL, S_PENDING, S_TRIE, S_FIRST_PAIR, S_TREE_PHASE, S_PHASE, S_LEGAL_OF, S_FIRST_TABLE,
       S_ENC_LEGAL, S_TREE_LEGAL, S_IDS, S_END, S_ACTIONS, S_WHO, S_MASK_KEY,
       S_AGENT_SELECTION, S_TERMINATIONS, S_TRUNCATIONS, S_POSITION, S_CUMULATIVE, S_REWARDS, S_INFOS,
       S_ENCODING, S_POSSIBLE_AGENTS, S_SETTLE, S_ACCUMULATE, S_REFRESH_AT, S_OBS_SOURCE,
       S_INDEX, S_TO_ACT, S_IS_OVER, S_TRUNCATES, S_PENDING_LEGAL, S_COUNT };
static const char *const FAST_NAMES[S_COUNT] = {
    "_pos", "player_id", "_deal", "_k", "_outcomes", "_step", "_enc", "_extend", "enter", "_apply", "state",
    "_legal", "pending", "_trie", "_first_pair", "_tree_phase", "phase", "_legal_of", "_first_table", "_legal",
    "_tree_legal", "_ids", "_end", "_actions", "_who", "action_mask",
    "agent_selection", "terminations", "truncations", "position", "_cumulative_rewards", "rewards", "infos",
    "encoding", "possible_agents", "_settle", "_accumulate_rewards", "refresh_at", "_obs_source",
    "_index", "to_act", "is_over", "_truncates", "_pending_legal"};

struct FastMethodObject {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    int kind;
    PyObject *fallback, *drawing, *terminal, *subset, *position, *unset, *infos, *make, *enter;
    PyObject *kw_extend, *kw_enter; /* the record maker's keywords (with `enter`) */
    Layout *layout;                 /* with `enter`: its layout (held by `enter`), and */
    Py_ssize_t at_extend[5], at_enter[3]; /* the fields of those keywords */
    PyObject *zero;                 /* the float 0.0 the step stores */
    PyObject *spare, *spare_new;    /* "action_mask": the last mask made, and its new() */
    Py_ssize_t spare_len;           /* its length, and its buffer's format: */
    char spare_format[8];
    PyObject *names[S_COUNT];
    PyMemberDef *members[S_COUNT]; /* the `position` type's slot of a name, where it has one */
};

/* pos.<names[i]>: straight from its slot where pos is a `position` (PyMember_GetOne, as
 * the slot's descriptor reads it: AttributeError where it is not set), else getattr. */
static PyObject *
pos_get(FastMethodObject *self, PyObject *pos, int i)
{
    if (self->members[i] != NULL && PyObject_TypeCheck(pos, (PyTypeObject *)self->position)) {
        return PyMember_GetOne((const char *)pos, self->members[i]);
    }
    return PyObject_GetAttr(pos, self->names[i]);
}

/* pos.<names[i]> = value, likewise. */
static int
pos_set(FastMethodObject *self, PyObject *pos, int i, PyObject *value)
{
    if (self->members[i] != NULL && PyObject_TypeCheck(pos, (PyTypeObject *)self->position)) {
        return PyMember_SetOne((char *)pos, self->members[i], value);
    }
    return PyObject_SetAttr(pos, self->names[i], value);
}

static int
fast_traverse(FastMethodObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->fallback);
    Py_VISIT(self->drawing);
    Py_VISIT(self->terminal);
    Py_VISIT(self->subset);
    Py_VISIT(self->position);
    Py_VISIT(self->unset);
    Py_VISIT(self->infos);
    Py_VISIT(self->make);
    Py_VISIT(self->enter);
    Py_VISIT(self->spare);
    Py_VISIT(self->spare_new);
    return 0;
}

static int
fast_clear(FastMethodObject *self)
{
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->drawing);
    Py_CLEAR(self->terminal);
    Py_CLEAR(self->subset);
    Py_CLEAR(self->position);
    Py_CLEAR(self->unset);
    Py_CLEAR(self->infos);
    Py_CLEAR(self->make);
    Py_CLEAR(self->enter);
    Py_CLEAR(self->kw_extend);
    Py_CLEAR(self->kw_enter);
    Py_CLEAR(self->zero);
    Py_CLEAR(self->spare);
    Py_CLEAR(self->spare_new);
    for (int i = 0; i < S_COUNT; i++) {
        Py_CLEAR(self->names[i]);
    }
    return 0;
}

static void
fast_dealloc(FastMethodObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    fast_clear(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* The Deal at the drawing position `pos`, a new reference; NULL with no error where
 * the fast path does not apply (not a drawing position, or not a Deal), NULL with an
 * error where reading failed. */
static PyObject *
fast_deal(FastMethodObject *self, PyObject *pos)
{
    if ((PyObject *)Py_TYPE(pos) != self->drawing) {
        return NULL;
    }
    PyObject *deal = pos_get(self, pos, S_DEAL);
    if (deal != NULL && Py_TYPE(deal)->tp_dealloc != (destructor)deal_dealloc) {
        Py_CLEAR(deal); /* (a Deal of any interpreter's copy: known by its deallocator) */
    }
    return deal;
}

/* state._pos: read from the state's __dict__ where it is there (the attribute the
 * framework's state keeps; a class attribute of that name would be shadowed by it
 * anyway, as no data descriptor of the class has that name), else through getattr. */
static PyObject *
fast_pos(FastMethodObject *self, PyObject *state)
{
    PyObject *name = self->names[S_POS];
    if (Py_TYPE(state)->tp_dictoffset != 0 && Py_TYPE(state)->tp_getattro == PyObject_GenericGetAttr) {
        PyObject *dict = PyObject_GenericGetDict(state, NULL);
        if (dict == NULL) {
            return NULL;
        }
        PyObject *pos = PyDict_GetItemWithError(dict, name); /* borrowed */
        Py_XINCREF(pos);
        Py_DECREF(dict);
        if (pos != NULL || PyErr_Occurred()) {
            return pos;
        }
    }
    return PyObject_GetAttr(state, name);
}

/* "apply_action" at a position that is not a drawing one (`pos`, a reference given
 * away): the step's action, or the fallback. */
static PyObject *
fast_decide(FastMethodObject *self, PyObject *pos, PyObject *const *args)
{
    PyObject *const *names = self->names;
    PyObject *deal = pos_get(self, pos, S_DEAL);
    if (deal == NULL) {
        Py_DECREF(pos);
        return NULL;
    }
    int chance = deal != Py_None;
    Py_DECREF(deal);
    PyObject *step = chance ? NULL : pos_get(self, pos, S_STEP);
    if (step == NULL || !PyDict_CheckExact(step)) {
        Py_XDECREF(step);
        Py_DECREF(pos);
        return PyErr_Occurred() ? NULL : PyObject_Vectorcall(self->fallback, args, 2, NULL);
    }
    PyObject *move = PyDict_GetItemWithError(step, args[1]); /* borrowed: held by step */
    if (move == NULL) {
        Py_DECREF(step);
        Py_DECREF(pos);
        return PyErr_Occurred() ? NULL : PyObject_Vectorcall(self->fallback, args, 2, NULL);
    }
    Py_INCREF(move);
    Py_DECREF(step);
    PyObject *enc = PyObject_GetAttr(args[0], names[S_ENC]), *next = NULL;
    int records = self->kw_extend != NULL; /* (with `enter`: the record maker, as env_step) */
    if (enc != NULL && move == Py_None && records && PyLong_CheckExact(args[1])) {
        next = fast_extend(self, pos, args[1]);
    }
    else if (enc != NULL && move == Py_None) {
        PyObject *call[3] = {enc, pos, args[1]};
        next = PyObject_VectorcallMethod(names[S_EXTEND], call, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    }
    else if (enc != NULL) {
        PyObject *state = pos_get(self, pos, S_STATE);
        PyObject *after = NULL;
        if (state != NULL) {
            PyObject *call[3] = {enc, state, move};
            after = PyObject_VectorcallMethod(names[S_APPLY], call, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            Py_DECREF(state);
        }
        if (after != NULL && records) {
            next = fast_enter(self, enc, after);
            Py_DECREF(after);
        }
        else if (after != NULL) {
            PyObject *call[2] = {enc, after};
            next = PyObject_VectorcallMethod(names[S_ENTER], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            Py_DECREF(after);
        }
    }
    Py_XDECREF(enc);
    Py_DECREF(move);
    Py_DECREF(pos);
    if (next == NULL) {
        return NULL;
    }
    int rc = PyObject_SetAttr(args[0], names[S_POS], next);
    Py_DECREF(next);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* "legal_actions" at a position with tokens pending: where nothing is worked out yet
 * and its tree is a `subset` one, the step of subset_step(tree._ids, tree._end,
 * tree._actions, pending) kept on the position and its ids returned (new references);
 * None where that does not apply (then the fallback), NULL on an error. */
static PyObject *
fast_subset(FastMethodObject *self, PyObject *pos, PyObject *pending)
{
    PyObject *const *names = self->names;
    PyObject *step = pos_get(self, pos, S_STEP);
    if (step == NULL) {
        return NULL;
    }
    int fresh = step == Py_None;
    Py_DECREF(step);
    PyObject *tree = fresh ? pos_get(self, pos, S_TRIE) : Py_NewRef(Py_None);
    if (tree == NULL) {
        return NULL;
    }
    if ((PyObject *)Py_TYPE(tree) != self->subset) {
        Py_DECREF(tree);
        return Py_NewRef(Py_None);
    }
    PyObject *call[4] = {NULL, NULL, NULL, pending}, *found = NULL;
    call[0] = PyObject_GetAttr(tree, names[S_IDS]);
    call[1] = call[0] == NULL ? NULL : PyObject_GetAttr(tree, names[S_END]);
    call[2] = call[1] == NULL ? NULL : PyObject_GetAttr(tree, names[S_ACTIONS]);
    if (call[2] != NULL) {
        found = subset_step(NULL, call, 4);
    }
    Py_DECREF(tree);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(call[i]);
    }
    if (found == NULL || found == Py_None) {
        return found;
    }
    PyObject *legal = PyTuple_GET_ITEM(found, 1), *result = NULL;
    if (pos_set(self, pos, S_STEP, PyTuple_GET_ITEM(found, 0)) == 0
        && pos_set(self, pos, S_LEGAL, legal) == 0) {
        result = Py_NewRef(legal);
    }
    Py_DECREF(found);
    return result;
}

/* Whether nothing is worked out at `pos` yet (its _step and _trie both None): 1 or 0,
 * -1 on an error.  (What both adapters' first-token shortcut needs.) */
static int
fast_plain(FastMethodObject *self, PyObject *pos)
{
    for (int i = 0; i < 2; i++) {
        PyObject *item = pos_get(self, pos, i ? S_TRIE : S_STEP);
        if (item == NULL) {
            return -1;
        }
        int plain = item == Py_None;
        Py_DECREF(item);
        if (!plain) {
            return 0;
        }
    }
    return 1;
}

/* The legal ids of a first token at `pos` from the state's legal `actions` and the
 * encoding's first-token `table` (Encoding._legal's common case): first_legal's step and
 * ids kept on the position, or, where not every action is interned, enc._legal(pos).  A
 * new reference, NULL on an error.  (Both adapters' shortcut ends here.) */
static PyObject *
fast_first_ids(FastMethodObject *self, PyObject *enc, PyObject *pos, PyObject *actions, PyObject *table)
{
    PyObject *call[2] = {actions, table};
    PyObject *found = first_legal(NULL, call, 2);
    if (found == NULL) {
        return NULL;
    }
    if (found == Py_None) { /* not every action interned: Encoding._legal */
        Py_DECREF(found);
        PyObject *enc_call[2] = {enc, pos};
        return PyObject_VectorcallMethod(self->names[S_ENC_LEGAL], enc_call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                         NULL);
    }
    PyObject *legal = NULL;
    if (pos_set(self, pos, S_STEP, PyTuple_GET_ITEM(found, 0)) == 0
        && pos_set(self, pos, S_LEGAL, PyTuple_GET_ITEM(found, 1)) == 0) {
        legal = Py_NewRef(PyTuple_GET_ITEM(found, 1));
    }
    Py_DECREF(found);
    return legal;
}

/* "legal_actions" (`pos`, a reference given away): the kept ids, the common case of
 * the first token, or the fallback. */
static PyObject *
fast_legal(FastMethodObject *self, PyObject *pos, PyObject *const *args)
{
    PyObject *const *names = self->names;
    PyObject *result = NULL, *enc = NULL, *state = NULL, *item = NULL;
    PyObject *current = pos_get(self, pos, S_PLAYER_ID);
    if (current == NULL) {
        goto done;
    }
    int same = current == Py_None ? 0 : PyObject_RichCompareBool(args[1], current, Py_EQ);
    Py_DECREF(current);
    if (same <= 0) {
        if (same == 0) {
            goto fallback; /* the player to act not kept, or another player asked */
        }
        goto done;
    }
    result = pos_get(self, pos, S_LEGAL);
    if (result == NULL || result != Py_None) {
        goto done; /* the ids kept (or an error) */
    }
    Py_CLEAR(result);
    item = pos_get(self, pos, S_PENDING);
    if (item == NULL) {
        goto done;
    }
    if (PyTuple_CheckExact(item) && PyTuple_GET_SIZE(item) > 0) { /* a token of a subset choice under way */
        PyObject *pending = item;
        result = fast_subset(self, pos, pending);
        Py_DECREF(pending);
        if (result != Py_None) {
            goto done; /* its ids (or an error) */
        }
        Py_CLEAR(result);
        goto fallback;
    }
    /* nothing pending, nothing worked out */
    int plain = PyTuple_CheckExact(item);
    Py_CLEAR(item);
    if (plain) {
        plain = fast_plain(self, pos);
        if (plain < 0) {
            goto done;
        }
    }
    if (!plain) {
        goto fallback;
    }
    enc = PyObject_GetAttr(args[0], names[S_ENC]);
    item = enc == NULL ? NULL : PyObject_GetAttr(enc, names[S_FIRST_PAIR]);
    int firsts = item == NULL ? -1 : PyObject_IsTrue(item);
    Py_CLEAR(item);
    if (firsts <= 0) {
        if (firsts == 0) {
            goto fallback;
        }
        goto done;
    }
    state = pos_get(self, pos, S_STATE);
    item = state == NULL ? NULL : PyObject_GetAttr(enc, names[S_TREE_PHASE]);
    if (item == NULL) {
        goto done;
    }
    int tree = 0;
    if (item != Py_None) {
        PyObject *phase = PyObject_GetAttr(state, names[S_PHASE]);
        tree = phase == NULL ? -1 : PyObject_RichCompareBool(phase, item, Py_EQ);
        Py_XDECREF(phase);
    }
    Py_CLEAR(item);
    if (tree != 0) {
        if (tree > 0) { /* a tree from the start (an Aegis exchange): enc._tree_legal */
            PyObject *call[2] = {enc, pos};
            result = PyObject_VectorcallMethod(names[S_TREE_LEGAL], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            if (result == Py_None) { /* no shortcut: Encoding._legal */
                Py_DECREF(result);
                result = PyObject_VectorcallMethod(names[S_ENC_LEGAL], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                                   NULL);
            }
        }
        goto done;
    }
    PyObject *legal_of = PyObject_GetAttr(enc, names[S_LEGAL_OF]);
    PyObject *actions = legal_of == NULL ? NULL : PyObject_CallOneArg(legal_of, state);
    Py_XDECREF(legal_of);
    PyObject *table = actions == NULL ? NULL : PyObject_GetAttr(enc, names[S_FIRST_TABLE]);
    if (table != NULL) {
        result = fast_first_ids(self, enc, pos, actions, table);
        Py_DECREF(table);
    }
    Py_XDECREF(actions);
done:
    Py_XDECREF(enc);
    Py_XDECREF(state);
    Py_DECREF(pos);
    return result;
fallback:
    Py_XDECREF(enc);
    Py_XDECREF(state);
    Py_DECREF(pos);
    return PyObject_Vectorcall(self->fallback, args, 2, NULL);
}

/* The mask of `player` at `pos` (the parts of an observation, `source` a tuple of 5):
 * a new reference; Py_NotImplemented (a new reference) where the fallback is to answer,
 * NULL on an error. */
#define FALL_BACK Py_NewRef(Py_NotImplemented)
/* Whether the object `obj` is held by its one reference alone (the caller's) and by no
 * weak reference: no one else can see it, so it may be used again as a new object. */
static int
held_alone(PyObject *obj)
{
#ifdef Py_GIL_DISABLED
    return 0; /* (a reference count read without the GIL says nothing) */
#else
    PyTypeObject *tp = Py_TYPE(obj);
    if (Py_REFCNT(obj) != 1 || tp->tp_weaklistoffset < 0) {
        return 0;
    }
#ifdef Py_TPFLAGS_MANAGED_WEAKREF
    if (tp->tp_flags & Py_TPFLAGS_MANAGED_WEAKREF) {
        return 0;
    }
#endif
    return tp->tp_weaklistoffset == 0 || *(PyObject **)((char *)obj + tp->tp_weaklistoffset) == NULL;
#endif
}

/* mask_of(new, ids), but with the mask this FastMethod made last where nothing else
 * holds it any more (the observation that held it freed, no view, buffer or weak
 * reference of it left), from the same new(), and its buffer still one writable piece
 * of the same length and format: its bytes zeroed and the ones written again, in place
 * of a new array copied and the old one freed.  No one can tell the two apart (an
 * object no one holds), and a mask handed out never changes while anyone holds it. */
static PyObject *
fast_new_mask(FastMethodObject *self, PyObject *new_mask, PyObject *legal)
{
#ifdef Py_GIL_DISABLED
    /* (one FastMethod serves every environment, of any thread: nothing kept) */
    PyObject *plain[2] = {new_mask, legal};
    return mask_of(NULL, plain, 2);
#endif
    PyObject *spare = self->spare, *mask = NULL;
    if (spare != NULL && self->spare_new == new_mask && held_alone(spare)
        && (PyList_CheckExact(legal) || PyTuple_CheckExact(legal))) {
        Py_buffer view;
        if (PyObject_GetBuffer(spare, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
            PyErr_Clear();
        }
        else {
            int fits = view.len == self->spare_len && view.ndim == 1 && view.itemsize == 1
                       && strcmp(view.format != NULL ? view.format : "B", self->spare_format) == 0;
            Py_ssize_t size = view.len, n = PySequence_Fast_GET_SIZE(legal);
            char *bytes = (char *)view.buf;
            for (Py_ssize_t i = 0; fits && i < n; i++) { /* the ids checked first: all plain, in range */
                PyObject *id = PySequence_Fast_GET_ITEM(legal, i);
                Py_ssize_t t = PyLong_CheckExact(id) ? PyLong_AsSsize_t(id) : -1;
                if (t < 0 || t >= size) {
                    PyErr_Clear();
                    fits = 0;
                }
            }
            if (fits) {
                memset(bytes, 0, (size_t)size);
                for (Py_ssize_t i = 0; i < n; i++) {
                    bytes[PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(legal, i))] = 1;
                }
                mask = Py_NewRef(spare);
            }
            PyBuffer_Release(&view);
            if (mask != NULL) {
                return mask;
            }
        }
    }
    PyObject *call[2] = {new_mask, legal};
    mask = mask_of(NULL, call, 2);
    if (mask == NULL) {
        return NULL;
    }
    /* kept for the next mask: its length and format read now */
    Py_buffer view;
    if (PyObject_GetBuffer(mask, &view, PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyErr_Clear();
        Py_CLEAR(self->spare);
        return mask;
    }
    const char *format = view.format != NULL ? view.format : "B";
    if (strlen(format) < sizeof(self->spare_format)) {
        strcpy(self->spare_format, format);
        self->spare_len = view.len;
        Py_XSETREF(self->spare, Py_NewRef(mask));
        Py_XSETREF(self->spare_new, Py_NewRef(new_mask));
    }
    else {
        Py_CLEAR(self->spare);
    }
    PyBuffer_Release(&view);
    return mask;
}

static PyObject *
fast_mask_at(FastMethodObject *self, PyObject *source, PyObject *pos, PyObject *player)
{
    PyObject *const *names = self->names;
    PyObject *who = pos_get(self, pos, S_WHO);
    if (who == NULL) {
        return NULL;
    }
    int same = who == self->unset ? 0 : PyObject_RichCompareBool(who, player, Py_EQ);
    Py_DECREF(who);
    if (same <= 0) {
        if (same == 0) {
            return FALL_BACK; /* not worked out, or not this player's turn */
        }
        return NULL;
    }
    PyObject *legal = pos_get(self, pos, S_LEGAL);
    if (legal == NULL) {
        return NULL;
    }
    if (legal == Py_None) {
        Py_DECREF(legal);
        legal = NULL;
        PyObject *pending = pos_get(self, pos, S_PENDING);
        if (pending == NULL) {
            return NULL;
        }
        if (!PyTuple_CheckExact(pending)) {
            Py_DECREF(pending);
            return FALL_BACK;
        }
        if (PyTuple_GET_SIZE(pending) > 0) { /* a token of an action under way */
            legal = fast_subset(self, pos, pending);
            Py_DECREF(pending);
            if (legal == NULL) {
                return NULL;
            }
            if (legal == Py_None) { /* not a subset tree's: enc._pending_legal(pos) */
                Py_DECREF(legal);
                PyObject *step = pos_get(self, pos, S_STEP);
                PyObject *tree = step == NULL ? NULL : pos_get(self, pos, S_TRIE);
                int other = tree == NULL ? -1 : step == Py_None && (PyObject *)Py_TYPE(tree) != self->subset;
                Py_XDECREF(step);
                Py_XDECREF(tree);
                if (other <= 0) {
                    return other < 0 ? NULL : FALL_BACK;
                }
                PyObject *enc_call[2] = {PyTuple_GET_ITEM(source, 0), pos};
                PyObject *found = PyObject_VectorcallMethod(names[S_PENDING_LEGAL], enc_call,
                                                            2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
                if (found == NULL) {
                    return NULL;
                }
                if (!PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 2) {
                    Py_DECREF(found);
                    return FALL_BACK; /* (None: not found) */
                }
                if (pos_set(self, pos, S_STEP, PyTuple_GET_ITEM(found, 0)) == 0
                    && pos_set(self, pos, S_LEGAL, PyTuple_GET_ITEM(found, 1)) == 0) {
                    legal = Py_NewRef(PyTuple_GET_ITEM(found, 1));
                }
                Py_DECREF(found);
                if (legal == NULL) {
                    return NULL;
                }
            }
        }
        else { /* nothing pending */
            Py_DECREF(pending);
            PyObject *table = PyTuple_GET_ITEM(source, 3), *tree_phase = PyTuple_GET_ITEM(source, 4);
            if (table == Py_None) {
                return FALL_BACK;
            }
            int plain = fast_plain(self, pos); /* nothing worked out */
            if (plain <= 0) {
                return plain < 0 ? NULL : FALL_BACK;
            }
            PyObject *state = pos_get(self, pos, S_STATE);
            if (state == NULL) {
                return NULL;
            }
            if (tree_phase != Py_None) {
                PyObject *phase = PyObject_GetAttr(state, names[S_PHASE]);
                int tree = phase == NULL ? -1 : PyObject_RichCompareBool(phase, tree_phase, Py_EQ);
                Py_XDECREF(phase);
                if (tree != 0) {
                    Py_DECREF(state);
                    if (tree < 0) {
                        return NULL;
                    }
                    /* a tree from the start (an Aegis exchange): enc._tree_legal(pos) */
                    PyObject *enc_call[2] = {PyTuple_GET_ITEM(source, 0), pos};
                    legal = PyObject_VectorcallMethod(names[S_TREE_LEGAL], enc_call,
                                                      2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
                    if (legal == Py_None) {
                        Py_DECREF(legal);
                        return FALL_BACK;
                    }
                    goto masked;
                }
            }
            PyObject *actions = PyObject_CallOneArg(PyTuple_GET_ITEM(source, 2), state);
            Py_DECREF(state);
            if (actions == NULL) {
                return NULL;
            }
            legal = fast_first_ids(self, PyTuple_GET_ITEM(source, 0), pos, actions, table);
            Py_DECREF(actions);
            if (legal == NULL) {
                return NULL;
            }
        }
    }
masked:
    if (legal == NULL) {
        return NULL;
    }
    PyObject *mask = fast_new_mask(self, PyTuple_GET_ITEM(source, 1), legal);
    Py_DECREF(legal);
    return mask;
}

/* "action_mask" (obs, key): the mask of the observation's player at its position, or
 * the fallback (for another key, the tensor, too). */
static PyObject *
fast_mask(FastMethodObject *self, PyObject *const *args)
{
    PyObject *source, *pos, *player, *result = NULL;
    if (args[1] == self->names[S_MASK_KEY] && lazy_parts(args[0], &source, &pos, &player)
        && PyTuple_CheckExact(source) && PyTuple_GET_SIZE(source) == 5) {
        Py_INCREF(source); /* (held while Python code runs: legal_of, enc._legal) */
        Py_INCREF(pos);
        Py_INCREF(player);
        result = fast_mask_at(self, source, pos, player);
        Py_DECREF(source);
        Py_DECREF(pos);
        Py_DECREF(player);
        if (result != Py_NotImplemented) {
            return result;
        }
        Py_DECREF(result);
    }
    return PyObject_Vectorcall(self->fallback, args, 2, NULL);
}

/* Whether a value of the dict `d` is true: 1, 0, or -1 on an error. */
static int
any_value(PyObject *d)
{
    Py_ssize_t i = 0;
    PyObject *key, *value;
    while (PyDict_Next(d, &i, &key, &value)) {
        Py_INCREF(value);
        int t = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (t != 0) {
            return t;
        }
    }
    return 0;
}

/* env.<names[i]>: from the environment's __dict__ (a new reference), NULL without an
 * error where it is not there. */
static PyObject *
env_get(FastMethodObject *self, PyObject *dict, int i)
{
    PyObject *value = PyDict_GetItemWithError(dict, self->names[i]);
    return Py_XNewRef(value);
}

/* env.<names[i]>: from the environment's __dict__ `dict` where it is there (as env_get),
 * else getattr (a class attribute, or the AttributeError). */
static PyObject *
env_attr(FastMethodObject *self, PyObject *env, PyObject *dict, int i)
{
    PyObject *value = env_get(self, dict, i);
    if (value == NULL && !PyErr_Occurred()) {
        value = PyObject_GetAttr(env, self->names[i]);
    }
    return value;
}

/* The position after a pending token, as enc._extend makes it for an int token, with
 * the record maker of self->enter's layout: the same state, trie, player and id, the
 * token added to pending. */
static PyObject *
fast_extend(FastMethodObject *self, PyObject *pos, PyObject *action)
{
    static const int fields[5] = {S_STATE, S_PENDING, S_TRIE, S_WHO, S_PLAYER_ID};
    PyObject *call[6] = {PyTuple_GET_ITEM(self->enter, 0), NULL, NULL, NULL, NULL, NULL}, *next = NULL;
    for (int i = 0; i < 5; i++) {
        if ((call[i + 1] = pos_get(self, pos, fields[i])) == NULL) {
            goto done;
        }
    }
    if (!PyTuple_CheckExact(call[2])) {
        PyErr_SetString(PyExc_TypeError, "a position's pending tokens must be a tuple");
        goto done;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(call[2]);
    PyObject *pending = PyTuple_New(k + 1); /* (pending + (action,), one tuple made) */
    if (pending == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyTuple_SET_ITEM(pending, i, Py_NewRef(PyTuple_GET_ITEM(call[2], i)));
    }
    PyTuple_SET_ITEM(pending, k, Py_NewRef(action));
    Py_SETREF(call[2], pending);
    next = self->layout != NULL ? new_record_at(self->layout, 5, self->at_extend, call + 1)
                                : new_record(NULL, call, 1, self->kw_extend);
done:
    for (int i = 1; i < 6; i++) {
        Py_XDECREF(call[i]);
    }
    return next;
}

/* The position at the state `after` (nothing pending), as enc.enter makes it: with the
 * record maker where the state is not over, enc._truncates is false and the player to
 * act is not chance; else enc.enter(after). */
static PyObject *
fast_enter(FastMethodObject *self, PyObject *enc, PyObject *after)
{
    PyObject *const *names = self->names;
    PyObject *who = PyObject_GetAttr(after, names[S_TO_ACT]);
    if (who == NULL) {
        return NULL;
    }
    /* a player to act (an int) is no end: the game is over exactly where to_act is None,
       so is_over (a property, a Python call) is read only where to_act is no int */
    int plain = 1;
    PyObject *flag;
    if (!PyLong_CheckExact(who)) {
        flag = PyObject_GetAttr(after, names[S_IS_OVER]);
        plain = flag == NULL ? -1 : PyObject_Not(flag);
        Py_XDECREF(flag);
    }
    if (plain > 0) {
        flag = PyObject_GetAttr(enc, names[S_TRUNCATES]);
        plain = flag == NULL ? -1 : PyObject_Not(flag);
        Py_XDECREF(flag);
    }
    if (plain > 0 && who == PyTuple_GET_ITEM(self->enter, 1)) {
        plain = 0; /* a chance node: its deal */
    }
    PyObject *next = NULL;
    if (plain > 0) {
        PyObject *call[4] = {PyTuple_GET_ITEM(self->enter, 0), after, who, PyLong_CheckExact(who) ? who : Py_None};
        next = self->layout != NULL ? new_record_at(self->layout, 3, self->at_enter, call + 1)
                                    : new_record(NULL, call, 1, self->kw_enter);
    }
    else if (plain == 0) {
        PyObject *call[2] = {enc, after};
        next = PyObject_VectorcallMethod(names[S_ENTER], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    }
    Py_DECREF(who);
    return next;
}

/* "env_step" after the step was found (`move` the step's value): the position made and
 * set, and the rest of the step. */
static PyObject *
fast_env_apply(FastMethodObject *self, PyObject *env, PyObject *dict, PyObject *action, PyObject *pos,
               PyObject *move, PyObject *infos, PyObject *rewards)
{
    PyObject *const *names = self->names;
    PyObject *enc = env_attr(self, env, dict, S_ENCODING), *next = NULL;
    if (enc == NULL) {
        return NULL;
    }
    int records = self->kw_extend != NULL;
    if (move == Py_None && records) { /* a pending token */
        next = fast_extend(self, pos, action);
    }
    else if (move == Py_None) {
        PyObject *call[3] = {enc, pos, action};
        next = PyObject_VectorcallMethod(names[S_EXTEND], call, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    }
    else {
        PyObject *state = pos_get(self, pos, S_STATE), *after = NULL;
        if (state != NULL) {
            PyObject *call[3] = {enc, state, move};
            after = PyObject_VectorcallMethod(names[S_APPLY], call, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
            Py_DECREF(state);
        }
        if (after != NULL && records) {
            next = fast_enter(self, enc, after);
        }
        else if (after != NULL) {
            PyObject *call[2] = {enc, after};
            next = PyObject_VectorcallMethod(names[S_ENTER], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        }
        Py_XDECREF(after);
    }
    Py_DECREF(enc);
    if (next == NULL || PyObject_SetAttr(env, names[S_POSITION], next) < 0) {
        Py_XDECREF(next);
        return NULL;
    }
    PyObject *result = NULL;
    int lazy = (PyObject *)Py_TYPE(infos) == self->infos && is_lazy(infos);
    if (move == Py_None && lazy) { /* the same state, agent and infos */
        int scored = any_value(rewards);
        if (scored <= 0) {
            Py_DECREF(next);
            return scored < 0 ? NULL : Py_NewRef(Py_None);
        }
    }
    PyObject *who = pos_get(self, next, S_WHO);
    if (who == NULL) {
        Py_DECREF(next);
        return NULL;
    }
    Py_ssize_t at = -1;
    if (lazy && who != self->unset && PyLong_CheckExact(who)) {
        at = PyLong_AsSsize_t(who);
        if (at == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
    }
    Py_DECREF(who);
    PyObject *agents = at < 0 ? NULL : env_attr(self, env, dict, S_POSSIBLE_AGENTS);
    if (agents == NULL || !PyList_CheckExact(agents) || at >= PyList_GET_SIZE(agents)) {
        Py_XDECREF(agents);
        if (PyErr_Occurred()) {
            Py_DECREF(next);
            return NULL;
        }
        PyObject *call[2] = {env, next}; /* anything else: the Python step's end */
        result = PyObject_VectorcallMethod(names[S_SETTLE], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        Py_DECREF(next);
        return result;
    }
    PyObject *agent = Py_NewRef(PyList_GET_ITEM(agents, at));
    Py_DECREF(agents);
    int rc = PyObject_SetAttr(env, names[S_AGENT_SELECTION], agent);
    Py_DECREF(agent);
    PyObject *state = rc < 0 ? NULL : pos_get(self, next, S_STATE);
    Py_DECREF(next);
    if (state == NULL) {
        return NULL;
    }
    if (state != lazy_at(infos)) { /* a new state, new views */
        PyObject *call[2] = {infos, state};
        PyObject *done = PyObject_VectorcallMethod(names[S_REFRESH_AT], call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                                   NULL);
        if (done == NULL) {
            Py_DECREF(state);
            return NULL;
        }
        Py_DECREF(done);
    }
    Py_DECREF(state);
    int scored = any_value(rewards);
    if (scored <= 0) {
        return scored < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *call[1] = {env};
    return PyObject_VectorcallMethod(names[S_ACCUMULATE], call, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* "env_step" (env, action): the step's common case, or the fallback. */
static PyObject *
fast_env_step(FastMethodObject *self, PyObject *const *args)
{
    PyObject *env = args[0], *action = args[1];
    if (!PyLong_CheckExact(action) || Py_TYPE(env)->tp_dictoffset == 0
        || Py_TYPE(env)->tp_getattro != PyObject_GenericGetAttr) {
        goto fallback;
    }
    PyObject *dict = PyObject_GenericGetDict(env, NULL);
    if (dict == NULL) {
        return NULL;
    }
    PyObject *got[7] = {NULL};
    static const int which[7] = {S_AGENT_SELECTION, S_TERMINATIONS, S_TRUNCATIONS, S_POSITION, S_CUMULATIVE,
                                 S_REWARDS, S_INFOS};
    for (int i = 0; i < 7; i++) {
        if ((got[i] = env_get(self, dict, which[i])) == NULL) {
            break;
        }
    }
    PyObject *agent = got[0], *terms = got[1], *truncs = got[2], *pos = got[3], *cum = got[4], *rewards = got[5],
             *infos = got[6], *step = NULL, *move = NULL, *result = NULL;
    int common = 0;
    if (PyErr_Occurred()) {
        goto done;
    }
    if (infos == NULL || !PyDict_CheckExact(terms) || !PyDict_CheckExact(truncs) || !PyDict_CheckExact(cum)
        || !PyDict_CheckExact(rewards) || (PyObject *)Py_TYPE(pos) != self->position) {
        goto done; /* (common == 0: the fallback) */
    }
    PyObject *term = PyDict_GetItemWithError(terms, agent);
    PyObject *trunc = term == NULL ? NULL : PyDict_GetItemWithError(truncs, agent);
    if (trunc == NULL) {
        goto done;
    }
    if (term != Py_False || trunc != Py_False) {
        goto done;
    }
    step = pos_get(self, pos, S_STEP);
    if (step == NULL || !PyDict_CheckExact(step)) {
        goto done;
    }
    move = PyDict_GetItemWithError(step, action);
    if (move == NULL) {
        goto done;
    }
    Py_INCREF(move);
    common = 1;
    if (self->zero == NULL && (self->zero = PyFloat_FromDouble(0.0)) == NULL) {
        goto done;
    }
    if (PyDict_SetItem(cum, agent, self->zero) < 0) { /* (one 0.0, as the Python step's constant) */
        goto done;
    }
    result = fast_env_apply(self, env, dict, action, pos, move, infos, rewards);
done:
    Py_DECREF(dict);
    Py_XDECREF(move);
    Py_XDECREF(step);
    for (int i = 0; i < 7; i++) {
        Py_XDECREF(got[i]);
    }
    if (common || PyErr_Occurred()) {
        return result;
    }
fallback:
    return PyObject_Vectorcall(self->fallback, args, 2, NULL);
}

/* "env_last" (env[, observe]): last()'s tuple, or the fallback. */
static PyObject *
fast_env_last(FastMethodObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *env = args[0];
    int observe = 1;
    if (nargs == 2) {
        if (args[1] == Py_False) {
            observe = 0;
        }
        else if (args[1] != Py_True) {
            goto fallback;
        }
    }
    if (!PyTuple_CheckExact(self->make) || PyTuple_GET_SIZE(self->make) < 3 || PyTuple_GET_SIZE(self->make) > 4
        || Py_TYPE(env)->tp_dictoffset == 0
        || Py_TYPE(env)->tp_getattro != PyObject_GenericGetAttr) {
        goto fallback;
    }
    PyObject *dict = PyObject_GenericGetDict(env, NULL);
    if (dict == NULL) {
        return NULL;
    }
    PyObject *got[8] = {NULL};
    static const int which[8] = {S_AGENT_SELECTION, S_CUMULATIVE, S_TERMINATIONS, S_TRUNCATIONS, S_INFOS,
                                 S_INDEX, S_OBS_SOURCE, S_POSITION};
    for (int i = 0; i < 8; i++) {
        if ((got[i] = env_get(self, dict, which[i])) == NULL) {
            break;
        }
    }
    Py_DECREF(dict);
    PyObject *agent = got[0], *result = NULL, *items[5] = {NULL};
    int common = 0;
    if (got[7] == NULL || PyErr_Occurred()) {
        goto done;
    }
    for (int i = 1; i < 6; i++) {
        if (i != 4 && !PyDict_CheckExact(got[i])) {
            goto done; /* (common == 0: the fallback) */
        }
    }
    common = 1;
    if (observe) {
        PyObject *player = PyDict_GetItemWithError(got[5], agent);
        if (player == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetObject(PyExc_KeyError, agent);
            }
            goto done;
        }
        Py_ssize_t size = PyTuple_GET_SIZE(self->make);
        PyObject *call[6] = {PyTuple_GET_ITEM(self->make, 1), PyTuple_GET_ITEM(self->make, 2), got[6], got[7],
                             player, size == 4 ? PyTuple_GET_ITEM(self->make, 3) : NULL};
        if ((items[0] = PyObject_Vectorcall(PyTuple_GET_ITEM(self->make, 0), call, (size_t)size + 2, NULL)) == NULL) {
            goto done;
        }
    }
    else {
        items[0] = Py_NewRef(Py_None);
    }
    for (int i = 1; i < 5; i++) {
        if ((items[i] = i < 4 ? PyDict_GetItemWithError(got[i], agent) : PyObject_GetItem(got[4], agent)) == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetObject(PyExc_KeyError, agent);
            }
            goto done;
        }
        if (i < 4) {
            Py_INCREF(items[i]);
        }
    }
    result = PyTuple_New(5);
    if (result != NULL) {
        for (int i = 0; i < 5; i++) {
            PyTuple_SET_ITEM(result, i, items[i]);
            items[i] = NULL;
        }
    }
done:
    for (int i = 0; i < 5; i++) {
        Py_XDECREF(items[i]);
    }
    for (int i = 0; i < 8; i++) {
        Py_XDECREF(got[i]);
    }
    if (common || PyErr_Occurred()) {
        return result;
    }
fallback:
    return PyObject_Vectorcall(self->fallback, args, nargs, NULL);
}

static PyObject *
fast_vectorcall(FastMethodObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t want = self->kind >= FAST_DRAW && self->kind != FAST_LAST ? 2 : 1;
    if (self->kind == FAST_LAST && nargs == 2 && kwnames == NULL) {
        return fast_env_last(self, args, nargs);
    }
    if (nargs != want || kwnames != NULL) {
        goto fallback;
    }
    if (self->kind == FAST_LAST) {
        return fast_env_last(self, args, nargs);
    }
    if (self->kind == FAST_MASK) {
        return fast_mask(self, args);
    }
    if (self->kind == FAST_STEP) {
        return fast_env_step(self, args);
    }
    PyObject *pos = fast_pos(self, args[0]);
    if (pos == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    switch (self->kind) {
    case FAST_PLAYER:
    case FAST_TERMINAL: {
        PyObject *player = pos_get(self, pos, S_PLAYER_ID);
        Py_DECREF(pos);
        if (player == NULL || player != Py_None) {
            if (player != NULL && self->kind == FAST_TERMINAL) {
                result = PyObject_RichCompare(player, self->terminal, Py_EQ);
                Py_DECREF(player);
                return result;
            }
            return player;
        }
        Py_DECREF(player);
        goto fallback;
    }
    case FAST_OUTCOMES: {
        PyObject *deal = fast_deal(self, pos);
        if (deal == NULL) {
            Py_DECREF(pos);
            if (PyErr_Occurred()) {
                return NULL;
            }
            goto fallback;
        }
        PyObject *k = pos_get(self, pos, S_K);
        Py_DECREF(pos);
        if (k != NULL) {
            result = deal_outcomes_method((DealObject *)deal, k);
            Py_DECREF(k);
        }
        Py_DECREF(deal);
        if (result != Py_None) {
            return result; /* the list, or NULL with an error */
        }
        Py_DECREF(result);
        goto fallback;
    }
    case FAST_LEGAL:
        return fast_legal(self, pos, args);
    default: { /* FAST_DRAW */
        if ((PyObject *)Py_TYPE(pos) != self->drawing) {
            return fast_decide(self, pos, args);
        }
        PyObject *deal = fast_deal(self, pos);
        if (deal == NULL) {
            Py_DECREF(pos);
            if (PyErr_Occurred()) {
                return NULL;
            }
            goto fallback;
        }
        PyObject *k = pos_get(self, pos, S_K);
        if (k == NULL) {
            Py_DECREF(deal);
            Py_DECREF(pos);
            return NULL;
        }
        PyObject *draw_args[2] = {k, args[1]};
        PyObject *drew = deal_draw_method((DealObject *)deal, draw_args, 2);
        Py_DECREF(deal);
        if (drew == Py_True) {
            Py_ssize_t at = PyNumber_AsSsize_t(k, PyExc_OverflowError); /* (deal_at_end read it) */
            PyObject *next = at == -1 && PyErr_Occurred() ? NULL : PyLong_FromSsize_t(at + 1);
            if (next != NULL && pos_set(self, pos, S_K, next) == 0
                && pos_set(self, pos, S_OUTCOMES, Py_None) == 0) {
                result = Py_NewRef(Py_None);
            }
            Py_XDECREF(next);
        }
        Py_DECREF(k);
        Py_DECREF(pos);
        if (drew != Py_False) {
            Py_XDECREF(drew);
            return result; /* None, or NULL with an error */
        }
        Py_DECREF(drew);
        goto fallback;
    }
    }
fallback:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *
fast_call(FastMethodObject *self, PyObject *args, PyObject *kwargs)
{
    return PyVectorcall_Call((PyObject *)self, args, kwargs);
}

static PyObject *
fast_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static PyObject *
fast_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"kind", "fallback", "drawing", "terminal", "subset", "position", "unset", "infos", "make", "enter", NULL};
    const char *kind_name;
    PyObject *fallback, *drawing = Py_None, *terminal = Py_None, *subset = Py_None, *position = Py_None;
    PyObject *unset = Py_None, *infos = Py_None, *make = Py_None, *enter = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "sO|OOOOOOOO:FastMethod", names, &kind_name, &fallback, &drawing,
                                     &terminal, &subset, &position, &unset, &infos, &make, &enter)) {
        return NULL;
    }
    int kind = -1;
    for (int i = 0; FAST_KINDS[i] != NULL; i++) {
        if (strcmp(kind_name, FAST_KINDS[i]) == 0) {
            kind = i;
        }
    }
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError,
                     "FastMethod: kind must be current_player, is_terminal, chance_outcomes, apply_action, "
                     "legal_actions, action_mask, env_step or env_last, not %R",
                     PyTuple_GET_ITEM(args, 0));
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "FastMethod: fallback must be callable");
        return NULL;
    }
    if ((kind == FAST_OUTCOMES || kind == FAST_DRAW) && !PyType_Check(drawing)) {
        PyErr_SetString(PyExc_TypeError, "FastMethod: drawing must be a type for chance_outcomes and apply_action");
        return NULL;
    }
    if (position != Py_None && !PyType_Check(position)) {
        PyErr_SetString(PyExc_TypeError, "FastMethod: position must be a type or None");
        return NULL;
    }
    if (enter != Py_None
        && !(PyTuple_CheckExact(enter) && PyTuple_GET_SIZE(enter) == 2
             && PyCapsule_IsValid(PyTuple_GET_ITEM(enter, 0), LAYOUT))) {
        PyErr_SetString(PyExc_TypeError, "FastMethod: enter must be a tuple (record layout, chance) or None");
        return NULL;
    }
    FastMethodObject *self = (FastMethodObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)fast_vectorcall;
    self->kind = kind;
    self->fallback = Py_NewRef(fallback);
    self->drawing = Py_NewRef(drawing);
    self->terminal = Py_NewRef(terminal);
    self->subset = Py_NewRef(subset);
    self->position = Py_NewRef(position);
    self->unset = Py_NewRef(unset);
    self->infos = Py_NewRef(infos);
    self->make = Py_NewRef(make);
    self->enter = Py_NewRef(enter);
    for (int i = 0; i < S_COUNT; i++) {
        self->names[i] = PyUnicode_InternFromString(FAST_NAMES[i]);
        if (self->names[i] == NULL) {
            Py_DECREF(self);
            return NULL;
        }
        /* the position's own object slots of that name (a member descriptor of the type
         * itself, T_OBJECT_EX, not read-only): read and written straight from the slot */
        PyObject *slot = position == Py_None ? NULL : PyDict_GetItemWithError(((PyTypeObject *)position)->tp_dict,
                                                                              self->names[i]);
        if (slot == NULL && PyErr_Occurred()) {
            Py_DECREF(self);
            return NULL;
        }
        if (slot != NULL && Py_IS_TYPE(slot, &PyMemberDescr_Type)
            && ((PyMemberDescrObject *)slot)->d_common.d_type == (PyTypeObject *)position
            && ((PyMemberDescrObject *)slot)->d_member->type == T_OBJECT_EX
            && !(((PyMemberDescrObject *)slot)->d_member->flags & READONLY)) {
            self->members[i] = ((PyMemberDescrObject *)slot)->d_member;
        }
    }
    if (enter != Py_None) { /* the record maker's keywords: interned, as its fields' names */
        PyObject *const *n = self->names;
        self->kw_extend = PyTuple_Pack(5, n[S_STATE], n[S_PENDING], n[S_TRIE], n[S_WHO], n[S_PLAYER_ID]);
        self->kw_enter = PyTuple_Pack(3, n[S_STATE], n[S_WHO], n[S_PLAYER_ID]);
        if (self->kw_extend == NULL || self->kw_enter == NULL) {
            Py_DECREF(self);
            return NULL;
        }
        /* the keywords' fields, found once (else new_record matches them at each call) */
        Layout *layout = (Layout *)PyCapsule_GetPointer(PyTuple_GET_ITEM(enter, 0), LAYOUT);
        int found = layout != NULL && layout->n <= MAX_FIELDS;
        for (Py_ssize_t i = 0; found && i < 5; i++) {
            found = (self->at_extend[i] = field_index(layout, PyTuple_GET_ITEM(self->kw_extend, i))) >= 0;
        }
        for (Py_ssize_t i = 0; found && i < 3; i++) {
            found = (self->at_enter[i] = field_index(layout, PyTuple_GET_ITEM(self->kw_enter, i))) >= 0;
        }
        PyErr_Clear(); /* (a field not found: new_record says so at the call, as before) */
        self->layout = found ? layout : NULL;
    }
    return (PyObject *)self;
}

static PyObject *
fast_get_kind(FastMethodObject *self, void *closure)
{
    return PyUnicode_FromString(FAST_KINDS[self->kind]);
}

static PyGetSetDef fast_getset[] = {
    {"kind", (getter)fast_get_kind, NULL, "Which method this is.", NULL},
    {NULL},
};

static PyMemberDef fast_members[] = {
    {"fallback", T_OBJECT, offsetof(FastMethodObject, fallback), READONLY, "The Python function it stands for."},
    {"drawing", T_OBJECT, offsetof(FastMethodObject, drawing), READONLY, "The type of a drawing position."},
    {"terminal", T_OBJECT, offsetof(FastMethodObject, terminal), READONLY, "The player id of the end."},
    {"subset", T_OBJECT, offsetof(FastMethodObject, subset), READONLY, "The type of a subset tree."},
    {"position", T_OBJECT, offsetof(FastMethodObject, position), READONLY, "The type whose slots are read."},
    {"unset", T_OBJECT, offsetof(FastMethodObject, unset), READONLY, "The marker of a player to act not worked out."},
    {"infos", T_OBJECT, offsetof(FastMethodObject, infos), READONLY, "The type of an environment's infos."},
    {"make", T_OBJECT, offsetof(FastMethodObject, make), READONLY, "An observation's maker, template and compute."},
    {"enter", T_OBJECT, offsetof(FastMethodObject, enter), READONLY, "The positions' record layout and chance."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(FastMethodObject, vectorcall), READONLY},
    {NULL},
};

static PyType_Slot fast_slots[] = {
    {Py_tp_doc, "FastMethod(kind, fallback, drawing=None, terminal=None, subset=None, position=None, unset=None, infos=None, make=None, enter=None): a state method, its common case in C."},
    {Py_tp_new, fast_new},
    {Py_tp_dealloc, fast_dealloc},
    {Py_tp_traverse, fast_traverse},
    {Py_tp_clear, fast_clear},
    {Py_tp_call, fast_call},
    {Py_tp_descr_get, fast_descr_get},
    {Py_tp_getset, fast_getset},
    {Py_tp_members, fast_members},
    {0, NULL},
};

static PyType_Spec fast_spec = {
    .name = "cardrules._speedups.FastMethod",
    .basicsize = sizeof(FastMethodObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .slots = fast_slots,
};

/* ----------------------------------------------------------------------------------- */
/* LazyDict                                                                             */

/* A dict whose values are computed when first read: a value that is the instance's
 * `compute` object itself stands for one not computed yet; reading it through [] calls
 * compute(self, key), stores the result under the key and appends the key to `made`
 * (a list, made at the first such key; nothing where `made` is False, as make(...,
 * made=False) sets it for a dict never refreshed).  `source`, `at` and `player` are for compute to
 * read.  Instances are made by the class method make() only (the constructor refuses);
 * the other dict methods are dict's (a Python subclass gives the other ways of
 * reading).  Reference:
 * cardrules._hotloops.LazyDictPy. */

typedef struct {
    PyDictObject dict;
    PyObject *made, *compute, *source, *at, *player;
} LazyObject;

static int
lazy_traverse(LazyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->made);
    Py_VISIT(self->compute);
    Py_VISIT(self->source);
    Py_VISIT(self->at);
    Py_VISIT(self->player);
    return PyDict_Type.tp_traverse((PyObject *)self, visit, arg); /* the items */
}

static int
lazy_clear(LazyObject *self)
{
    Py_CLEAR(self->made);
    Py_CLEAR(self->compute);
    Py_CLEAR(self->source);
    Py_CLEAR(self->at);
    Py_CLEAR(self->player);
    return PyDict_Type.tp_clear((PyObject *)self);
}

static void
lazy_dealloc(LazyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->made);
    Py_CLEAR(self->compute);
    Py_CLEAR(self->source);
    Py_CLEAR(self->at);
    Py_CLEAR(self->player);
    PyDict_Type.tp_dealloc((PyObject *)self); /* frees the object through tp_free */
    Py_DECREF(tp);
}

static PyObject *
lazy_subscript(LazyObject *self, PyObject *key)
{
    PyObject *value = PyDict_Type.tp_as_mapping->mp_subscript((PyObject *)self, key);
    if (value == NULL || value != self->compute) {
        return value; /* (a KeyError as dict's) */
    }
    PyObject *compute = value; /* the reference dict gave */
    PyObject *args[2] = {(PyObject *)self, key};
    value = PyObject_Vectorcall(compute, args, 2, NULL);
    Py_DECREF(compute);
    if (value == NULL) {
        return NULL;
    }
    int rc = PyDict_SetItem((PyObject *)self, key, value);
    if (rc == 0 && self->made != Py_False) { /* (False: a dict never refreshed records nothing) */
        DEAL_LOCK(self);
        if (self->made == NULL || !PyList_CheckExact(self->made)) {
            PyObject *made = PyList_New(1);
            if (made == NULL) {
                rc = -1;
            } else {
                PyList_SET_ITEM(made, 0, Py_NewRef(key));
                Py_XSETREF(self->made, made);
            }
        } else {
            rc = PyList_Append(self->made, key);
        }
        DEAL_UNLOCK();
    }
    if (rc < 0) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

static PyObject *
lazy_make(PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 && nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "LazyDict.make(template, compute, source, at, player, made=None)");
        return NULL;
    }
    if (!PyDict_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "LazyDict.make: the template must be a dict");
        return NULL;
    }
    PyObject *made = nargs == 6 ? args[5] : Py_None;
    if (made != Py_None && made != Py_False) {
        PyErr_SetString(PyExc_TypeError, "LazyDict.make: made must be None or False");
        return NULL;
    }
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        return NULL;
    }
    LazyObject *self = (LazyObject *)PyDict_Type.tp_new(cls, empty, NULL);
    Py_DECREF(empty);
    if (self == NULL) {
        return NULL;
    }
    if (PyDict_Update((PyObject *)self, args[0]) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    Py_XSETREF(self->made, Py_NewRef(made));
    Py_XSETREF(self->compute, Py_NewRef(args[1]));
    Py_XSETREF(self->source, Py_NewRef(args[2]));
    Py_XSETREF(self->at, Py_NewRef(args[3]));
    Py_XSETREF(self->player, Py_NewRef(args[4]));
    return (PyObject *)self;
}

static PyObject *
lazy_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyErr_SetString(PyExc_TypeError, "a LazyDict is made by LazyDict.make(template, compute, source, at, player)");
    return NULL;
}

/* refresh_at(at): `at` becomes _at, and each key of `made` still in the dict gets
 * `compute` as its value again (to be computed at its next read); `made` is emptied.
 * One call where a Python loop over the keys made took a dozen steps (the PettingZoo
 * environment's infos, at every step). */
static PyObject *
lazy_refresh_at(LazyObject *self, PyObject *at)
{
    int rc = 0;
    DEAL_LOCK(self);
    Py_XSETREF(self->at, Py_NewRef(at));
    PyObject *made = self->made;
    if (made != NULL && PyList_CheckExact(made) && self->compute != NULL) {
        Py_INCREF(made);
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(made) && rc == 0; i++) {
            PyObject *key = Py_NewRef(PyList_GET_ITEM(made, i));
            rc = PyDict_Contains((PyObject *)self, key);
            if (rc > 0) {
                rc = PyDict_SetItem((PyObject *)self, key, self->compute);
            }
            Py_DECREF(key);
        }
        if (rc == 0) {
            rc = PyList_SetSlice(made, 0, PyList_GET_SIZE(made), NULL);
        }
        Py_DECREF(made);
    }
    DEAL_UNLOCK();
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* A LazyDict of the compute objects' kind: a LazyChild(cls, template, compute) called as
 * child(parent, key), parent a LazyDict, makes
 * cls.make(template, compute, parent._source, parent._at, parent._player[key]): the
 * compute of a LazyDict whose values are LazyDicts themselves (the PettingZoo
 * environment's infos: each agent's info at the current state), called from C by the
 * parent's [] without a Python frame.  Reference: cardrules._hotloops.LazyChildPy. */

typedef struct {
    PyObject_HEAD
    PyObject *cls, *template, *compute;
    vectorcallfunc vectorcall;
} ChildObject;

static int
is_lazy_type(PyTypeObject *tp)
{
    for (; tp != NULL; tp = tp->tp_base) { /* LazyDict itself, or a subclass of it */
        if (tp->tp_dealloc == (destructor)lazy_dealloc) {
            return 1;
        }
    }
    return 0;
}

/* A LazyDict's _at (borrowed; NULL where it is not set). */
static PyObject *
lazy_at(PyObject *obj)
{
    return ((LazyObject *)obj)->at;
}

/* A LazyDict's _source, _at and _player (borrowed): 1, or 0 where obj is no LazyDict or
 * one of them is not set (FastMethod's "action_mask"). */
static int
lazy_parts(PyObject *obj, PyObject **source, PyObject **at, PyObject **player)
{
    if (!is_lazy(obj)) {
        return 0;
    }
    LazyObject *lazy = (LazyObject *)obj;
    *source = lazy->source;
    *at = lazy->at;
    *player = lazy->player;
    return *source != NULL && *at != NULL && *player != NULL;
}

static PyObject *
child_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    ChildObject *self = (ChildObject *)callable;
    if (PyVectorcall_NARGS(nargsf) != 2 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "a LazyChild is called as child(parent, key)");
        return NULL;
    }
    if (!is_lazy(args[0])) {
        PyErr_SetString(PyExc_TypeError, "LazyChild: the parent must be a LazyDict");
        return NULL;
    }
    LazyObject *parent = (LazyObject *)args[0];
    if (parent->player == NULL) {
        PyErr_SetString(PyExc_TypeError, "LazyChild: the parent has no _player");
        return NULL;
    }
    PyObject *player = PyObject_GetItem(parent->player, args[1]);
    if (player == NULL) {
        return NULL;
    }
    PyObject *make_args[5] = {
        self->template, self->compute,
        parent->source ? parent->source : Py_None, parent->at ? parent->at : Py_None, player,
    };
    PyObject *out = lazy_make((PyTypeObject *)self->cls, make_args, 5);
    Py_DECREF(player);
    return out;
}

static PyObject *
child_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *template, *compute;
    if ((kwds != NULL && PyDict_GET_SIZE(kwds) != 0)
        || !PyArg_UnpackTuple(args, "LazyChild", 3, 3, &cls, &template, &compute)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "LazyChild(cls, template, compute) takes no keywords");
        }
        return NULL;
    }
    if (!PyType_Check(cls) || !is_lazy_type((PyTypeObject *)cls)) {
        PyErr_SetString(PyExc_TypeError, "LazyChild: cls must be a LazyDict type");
        return NULL;
    }
    if (!PyDict_Check(template)) {
        PyErr_SetString(PyExc_TypeError, "LazyChild: the template must be a dict");
        return NULL;
    }
    ChildObject *self = (ChildObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->cls = Py_NewRef(cls);
    self->template = Py_NewRef(template);
    self->compute = Py_NewRef(compute);
    self->vectorcall = child_vectorcall;
    return (PyObject *)self;
}

static int
child_traverse(ChildObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->cls);
    Py_VISIT(self->template);
    Py_VISIT(self->compute);
    return 0;
}

static int
child_clear(ChildObject *self)
{
    Py_CLEAR(self->cls);
    Py_CLEAR(self->template);
    Py_CLEAR(self->compute);
    return 0;
}

static void
child_dealloc(ChildObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    child_clear(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMemberDef child_members[] = {
    {"cls", T_OBJECT_EX, offsetof(ChildObject, cls), READONLY, "The LazyDict type made."},
    {"template", T_OBJECT_EX, offsetof(ChildObject, template), READONLY, "The template of each one made."},
    {"compute", T_OBJECT_EX, offsetof(ChildObject, compute), READONLY, "The compute of each one made."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(ChildObject, vectorcall), READONLY},
    {NULL},
};

static PyType_Slot child_slots[] = {
    {Py_tp_doc, "LazyChild(cls, template, compute): child(parent, key) is "
                "cls.make(template, compute, parent._source, parent._at, parent._player[key])."},
    {Py_tp_new, child_new},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_dealloc, child_dealloc},
    {Py_tp_traverse, child_traverse},
    {Py_tp_clear, child_clear},
    {Py_tp_members, child_members},
    {0, NULL},
};

static PyType_Spec child_spec = {
    .name = "cardrules._speedups.LazyChild",
    .basicsize = sizeof(ChildObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = child_slots,
};

/* mask_of(new, ids): new() (a writable one-dimensional buffer of one-byte items, all
 * zeros: a NumPy int8 array's bound copy) with a 1 at each of ids, a list or tuple of
 * ints (negative ones from the end).  PettingZoo's action mask as the array itself, in
 * one call: where id_mask's bytearray then needed an ndarray over it (a second object,
 * and numpy.ndarray's argument parsing, twice the time of a copy).  Reference:
 * cardrules._hotloops.mask_of_py. */
static PyObject *
mask_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mask_of(new, ids)");
        return NULL;
    }
    PyObject *seq = args[1];
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "mask_of: ids must be a list or tuple of ints");
        return NULL;
    }
    PyObject *out = PyObject_CallNoArgs(args[0]);
    if (out == NULL) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(out, &view, PyBUF_CONTIG_RO) < 0) { /* (read-only: refused below) */
        Py_DECREF(out);
        if (PyErr_ExceptionMatches(PyExc_BufferError) || PyErr_ExceptionMatches(PyExc_ValueError)) {
            /* a buffer, but not in one piece (NumPy says ValueError, others BufferError) */
            PyErr_SetString(PyExc_TypeError, "mask_of: new() must give a writable buffer of one-byte items");
        }
        return NULL;
    }
    if (view.readonly || view.itemsize != 1 || view.ndim != 1) {
        PyBuffer_Release(&view);
        Py_DECREF(out);
        PyErr_SetString(PyExc_TypeError, "mask_of: new() must give a writable buffer of one-byte items");
        return NULL;
    }
    char *mask = (char *)view.buf;
    Py_ssize_t size = view.len;
    Py_INCREF(seq);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        Py_ssize_t t = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i), PyExc_IndexError);
        if (t == -1 && PyErr_Occurred()) {
            Py_CLEAR(out);
            break;
        }
        if (t < -size || t >= size) {
            PyErr_SetString(PyExc_IndexError, "mask_of: an id out of range");
            Py_CLEAR(out);
            break;
        }
        mask[t < 0 ? t + size : t] = 1;
    }
    Py_DECREF(seq);
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef lazy_methods[] = {
    {"make", (PyCFunction)(void (*)(void))lazy_make, METH_FASTCALL | METH_CLASS,
     "make(template, compute, source, at, player, made=None): a new one holding the template's items "
     "(made=False: the keys computed are not recorded)."},
    {"refresh_at", (PyCFunction)lazy_refresh_at, METH_O,
     "refresh_at(at): _at = at, and every key of _made (still there) to be computed again."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef lazy_members[] = {
    {"_made", T_OBJECT_EX, offsetof(LazyObject, made), 0, "The keys computed (a list), or None."},
    {"_compute", T_OBJECT_EX, offsetof(LazyObject, compute), 0, "compute(self, key)."},
    {"_source", T_OBJECT_EX, offsetof(LazyObject, source), 0, "For compute to read."},
    {"_at", T_OBJECT_EX, offsetof(LazyObject, at), 0, "For compute to read."},
    {"_player", T_OBJECT_EX, offsetof(LazyObject, player), 0, "For compute to read."},
    {NULL},
};

static PyType_Slot lazy_slots[] = {
    {Py_tp_doc, "A dict whose values are computed when first read (LazyDict.make)."},
    {Py_tp_new, lazy_new},
    {Py_tp_dealloc, lazy_dealloc},
    {Py_tp_traverse, lazy_traverse},
    {Py_tp_clear, lazy_clear},
    {Py_tp_methods, lazy_methods},
    {Py_tp_members, lazy_members},
    {Py_mp_subscript, lazy_subscript},
    {0, NULL},
};

static PyType_Spec lazy_spec = {
    .name = "cardrules._speedups.LazyDict",
    .basicsize = sizeof(LazyObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .slots = lazy_slots,
};

static int
speedups_exec(PyObject *module)
{
    PyObject *type = PyType_FromModuleAndSpec(module, &deal_spec, NULL);
    if (type == NULL) {
        return -1;
    }
    int rc = PyModule_AddObjectRef(module, "Deal", type);
    Py_DECREF(type);
    if (rc < 0) {
        return -1;
    }
    type = PyType_FromModuleAndSpec(module, &fast_spec, NULL);
    if (type == NULL) {
        return -1;
    }
    rc = PyModule_AddObjectRef(module, "FastMethod", type);
    Py_DECREF(type);
    if (rc < 0) {
        return -1;
    }
    type = PyType_FromModuleAndSpec(module, &first_table_spec, NULL);
    if (type == NULL) {
        return -1;
    }
    rc = PyModule_AddObjectRef(module, "FirstTable", type);
    Py_DECREF(type);
    if (rc < 0) {
        return -1;
    }
    PyObject *bases = PyTuple_Pack(1, (PyObject *)&PyDict_Type);
    if (bases == NULL) {
        return -1;
    }
    type = PyType_FromModuleAndSpec(module, &lazy_spec, bases);
    Py_DECREF(bases);
    if (type == NULL) {
        return -1;
    }
    rc = PyModule_AddObjectRef(module, "LazyDict", type);
    Py_DECREF(type);
    if (rc < 0) {
        return -1;
    }
    type = PyType_FromModuleAndSpec(module, &child_spec, NULL);
    if (type == NULL) {
        return -1;
    }
    rc = PyModule_AddObjectRef(module, "LazyChild", type);
    Py_DECREF(type);
    return rc;
}

static PyMethodDef speedups_methods[] = {
    {"subset_objects", (PyCFunction)(void (*)(void))subset_objects, METH_FASTCALL,
     "Every subset of a tuple, by size then position, as interned or new one-slot objects."},
    {"record_layout", (PyCFunction)(void (*)(void))record_layout, METH_FASTCALL,
     "The layout of a record class: its field slots in order, defaults, factories."},
    {"new_record", (PyCFunction)(void (*)(void))new_record, METH_FASTCALL | METH_KEYWORDS,
     "new_record(layout, **fields): cls(**fields) for a class whose __init__ only stores."},
    {"replace_record", (PyCFunction)(void (*)(void))replace_record, METH_FASTCALL | METH_KEYWORDS,
     "replace_record(layout, record, **changes): attrs.evolve(record, **changes), likewise."},
    {"first_step", (PyCFunction)(void (*)(void))first_step, METH_FASTCALL,
     "first_step(actions, pairs): {token: value} of pairs[id(a)] for each action, or None."},
    {"first_legal", (PyCFunction)(void (*)(void))first_legal, METH_FASTCALL,
     "first_legal(actions, table): ({token: value} of each action in table, its keys sorted), or None."},
    {"id_mask", (PyCFunction)(void (*)(void))id_mask, METH_FASTCALL,
     "id_mask(size, ids): a bytearray of `size` zeros with a 1 at each id."},
    {"hand_step", (PyCFunction)(void (*)(void))hand_step, METH_FASTCALL,
     "hand_step(ids, hand, pending, end, value): the ids of a hand left after the pending ones, then end."},
    {"fisher_yates", (PyCFunction)(void (*)(void))fisher_yates, METH_FASTCALL,
     "fisher_yates(items, stream): the seeded shuffle's swaps of a list, in place, by a byte stream."},
    {"subset_root", (PyCFunction)(void (*)(void))subset_root, METH_FASTCALL,
     "subset_root(hand, card_id, actions, end): a subset tree's parts, or None."},
    {"subset_step", (PyCFunction)(void (*)(void))subset_step, METH_FASTCALL,
     "subset_step(ids, end, actions, prefix): the level after a prefix of a subset choice, or None."},
    {"mask_of", (PyCFunction)(void (*)(void))mask_of, METH_FASTCALL,
     "mask_of(new, ids): new() (a writable buffer of one-byte zeros) with a 1 at each id."},
    {"same_objects", (PyCFunction)(void (*)(void))same_objects, METH_FASTCALL,
     "same_objects(a, b): whether two tuples hold the same objects as many times each."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot speedups_slots[] = {
    {Py_mod_exec, speedups_exec},
#if PY_VERSION_HEX >= 0x030C0000
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
