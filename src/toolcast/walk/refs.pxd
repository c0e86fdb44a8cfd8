# The compiled build's declaration of walk/refs.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.keywords cimport Keywords


cdef class References(Keywords):
    cpdef _collect_defs(self, dict root)
    cpdef _target(self, ref, sp)
    cpdef _ref_name(self, ref, name, note)
    cpdef _resolve_raw(self, ref, sp)
    cpdef _root_target(self)
    cpdef _inline_root_ref(self, dict root)
    cpdef _compile_defs(self)
    cpdef _ref(self, ref, dict out, sp, ip)
