# The compiled build's declaration of walk/resources.py's classes (see setup.py): the index of a
# document's resources and the copy that repoints its references, as extension types (attributes
# as C fields, methods as C methods; _Copy extends dialect.pxd's SlotCopy).

cimport cython

from toolcast.walk.dialect cimport SlotCopy


cdef class Resources:
    cdef public object doc
    cdef public object bases
    cdef public object anchors
    cdef public object refs
    cdef public object dialects
    cdef public object _at
    @cython.locals(at=list, slots=dict)
    cpdef _index(self, dict s, base)
    @cython.locals(at=list)
    cpdef _record(self, dict s, base)
    cpdef holds_schema(self, place)
    cpdef target(self, ref, base)
    cpdef at(self, place)


cdef class _Copy(SlotCopy):
    cdef public object dropped
    cpdef schema(self, s, tree)
