# The compiled build's declaration of walk/values.py's document scan (see setup.py): its counters
# as C integers (a Python int past 256 is a new object at every step), the functions it calls per
# schema object as C functions.

cimport cython


@cython.locals(flags=Py_ssize_t, budget=Py_ssize_t, stack=list, flagged=bint)
cpdef _plain_flags(doc)

cpdef _node_flags(v, root)
cpdef def_ref_name(ref)
cpdef _old_dialect_forms(v)
cpdef _names_a_resource(v, root)
