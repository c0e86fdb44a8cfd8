# The compiled build's declaration of walk/dialect.py's copy-on-write descent (see setup.py):
# extension types whose attributes are C fields and whose methods are C methods (a rewrite calls
# schema() and slot() once per schema object of the document).

cimport cython


cdef class SlotCopy:
    cdef public object at
    cpdef schema(self, s, ctx)
    cpdef slot(self, kind, v, ctx)


cdef class Rewrite(SlotCopy):
    cdef public object dialect
    cdef public object ref_siblings_ignored
    cdef public object draft4
    cdef public object kept
    cdef public object ignored
    cdef public object bounds
    cdef public object anchors
    cdef public object unknown
    cdef public object dropped
    cdef public object invalid
    cdef public object foreign
    cdef public object unread
    cdef public object left_out
    cpdef rewrite(self, s, sp)
    cpdef rewrite_at(self, dict s, list marked, Py_ssize_t which, bint owned=*)
    cpdef _node(self, dict s)
    @cython.locals(out=dict, at=list)
    cpdef schema(self, s, ctx)
    cpdef _draft4(self, dict s)
