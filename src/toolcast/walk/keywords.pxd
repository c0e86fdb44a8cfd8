# The compiled build's declaration of walk/keywords.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.leaves cimport Leaves


cdef class Keywords(Leaves):
    cpdef _keywords(self, dict s, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
    cpdef _kept(self, Py_ssize_t op, k, v, sp)
    cpdef _enum_types_ok(self, k, list values, sp)
    cpdef const_to_enum(self, k, v, ksp, dict out)
    cpdef one_of_to_any_of(self, k, v, ksp, dict out)
    cpdef openapi_nullable(self, k, v, ksp, dict out)
    cpdef definitions_to_defs(self, k, v, ksp, dict out)
    cpdef merge_all_of(self, k, v, ksp, dict out)
