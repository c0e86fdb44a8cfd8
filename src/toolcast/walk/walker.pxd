# The compiled build's declaration of walk/walker.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

cimport cython

from toolcast.walk.containers cimport Containers
from toolcast.walk.plans cimport NodePlan


cdef class Walk(Containers):
    cpdef compile(self, schema)
    cpdef _compile(self, schema)
    cpdef _set_root_type(self, dict root)
    @cython.locals(np=NodePlan)
    cpdef node(self, s, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root=*, plan=*, bint normalized=*)
    cpdef _inlined(self, s, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root)
    cpdef _inlined_again(self, ref, bint same_depth, sp)
    cpdef _not_a_node(self, s, sp, Py_ssize_t nest)
    cpdef _structure(self, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root, bint has_any_of)
    cpdef _container(self, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root, bint is_object, bint is_array)
    cpdef _ordered(self, dict out)
    cpdef _refuse_recursion(self)
    cpdef _check_limits(self)
