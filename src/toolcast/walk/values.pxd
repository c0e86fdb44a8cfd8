# The compiled build's declaration of walk/values.py's document scan (see setup.py): its counters
# as C integers (a Python int past 256 is a new object at every step), the functions it calls per
# schema object as C functions.

cimport cython


@cython.locals(flags=Py_ssize_t, budget=Py_ssize_t, stack=list, flagged=bint, text=str)
cpdef _plain_flags(doc, Py_ssize_t look=*)
cpdef plain_value(v, Py_ssize_t look=*)

cdef frozenset _FLAG_KEYS
cdef dict _POINTERS
cdef dict _DEF_NAMES
cpdef ref_pointer(ref)

cpdef _node_flags(dict v, root)
cpdef def_ref_name(ref)
cpdef _old_dialect_forms(dict v)
cpdef _names_a_resource(dict v, root)
