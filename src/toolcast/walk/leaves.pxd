# The compiled build's declaration of walk/leaves.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.nullpaths cimport NullPaths


cdef class Leaves(NullPaths):
    cpdef _dropped(self, k, ksp, dcode, tcode, bint refuses)
    cpdef _record_steps(self, dict s, steps, sp)
    cpdef _count_enum(self, list values, sp, k)
    cpdef _nullable(self, dict c, sp)
    cpdef _count_null(self, dict c, sp)
