# The compiled build's declaration of sent_copy.py's looked copy (see setup.py): what the copy notes
# (Seen) as C fields, among them the count of containers it may still make (the node budget, one C
# decrement a container), and the copy, which calls itself per container, as C functions.

cimport cython


cdef class Seen:
    cdef public bint bounds, tuples, resources, nested, scan, marks, ids
    cdef public list refs, names, ref_places, marked, dependents, tuple_places
    cdef public Py_ssize_t left, flags, hidden


@cython.locals(out=dict, text=str)
cpdef _dict(dict value, Py_ssize_t depth, Seen seen, at, bint members=*)
cpdef _note(dict value, dict out, Py_ssize_t depth, Seen seen, at, bint members)
@cython.locals(out=list, text=str)
cpdef _list(list value, Py_ssize_t depth, Seen seen, at)
