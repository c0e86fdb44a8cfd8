# The compiled build's declaration of tool_input.py's copy (see setup.py): the copy of a non-strict
# tool's schema calls itself per container, as C functions.

cimport cython


cdef frozenset _SCALARS

@cython.locals(out=dict)
cpdef _copy_dict(dict value, Py_ssize_t depth)
@cython.locals(out=list)
cpdef _copy_list(list value, Py_ssize_t depth)
