# The compiled build's declaration of walk/nullpaths.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.document cimport Document


cdef class NullPaths(Document):
    cpdef _with_nulls_below(self)
    cpdef _check_progress(self, dict out)
    cpdef _unbounded(self, has)
    cpdef _has_path(self, path, attr, targets, index)
