# The compiled build's declaration of walk/containers.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.combinators cimport Combinators


cdef class Containers(Combinators):
    cpdef _planned(self, s, np, t, sp, ip, depth, nest, root)
    cpdef _descend_slot(self, k, v, slot, sp, ip, depth, nest)
    cpdef _any_of(self, branches, sp, ip, depth, nest)
    cpdef _object(self, s, out, sp, ip, depth, nest, root)
    cpdef _property_keys(self, props, sp)
    cpdef _optional_null(self, name, psp, omit)
    cpdef _object_rules(self, s, props, sp, root)
    cpdef _property(self, name, sub, optional, sp, ip, depth, nest)
    cpdef _optional(self, name, psp, pip, original_null)
    cpdef _array(self, s, out, sp, ip, depth, nest)
