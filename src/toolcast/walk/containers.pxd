# The compiled build's declaration of walk/containers.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

cimport cython

from toolcast.walk.combinators cimport Combinators
from toolcast.walk.plans cimport NodePlan


cdef class Containers(Combinators):
    cpdef _planned(self, dict s, NodePlan np, t, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root)
    cpdef _descend_slot(self, k, v, slot, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
    cpdef _any_of(self, list branches, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
    @cython.locals(np=NodePlan)
    cpdef _object(self, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root)
    cpdef _property_keys(self, dict props, sp)
    cpdef _optional_null(self, name, psp, bint omit)
    cpdef _object_rules(self, dict s, dict props, sp, bint root)
    @cython.locals(child=dict, d=dict)
    cpdef _property(self, name, sub, bint optional, sp, ip, Py_ssize_t depth, Py_ssize_t nest, plan=*)
    cpdef _optional(self, name, psp, pip, bint original_null)
    cpdef _array(self, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
