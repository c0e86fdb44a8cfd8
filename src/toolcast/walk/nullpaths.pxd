# The compiled build's declaration of walk/nullpaths.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

cimport cython

from toolcast.walk.document cimport Document
from toolcast.walk.state cimport _Bucket


cdef class NullPaths(Document):
    @cython.locals(b=_Bucket, referrers=dict, has=set, todo=list)
    cpdef _with_nulls_below(self)
    cpdef _check_progress(self, dict out)
    cpdef _unbounded(self, has)
    @cython.locals(b=_Bucket, by_ip=dict, seen=set, todo=list, buckets=dict)
    cpdef _has_path(self, path, attr, targets, dict index)
