# The compiled build's declaration of walk/plans.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.state cimport State


cdef dict _DEF_REFS
cpdef _def_ref(name)


cdef class NodePlan:
    cdef public object array
    cdef public tuple container_steps
    cdef public object leaf
    cdef public tuple leaf_steps
    cdef public object object
    cdef public bint own_null


cdef class Plans(State):
    cpdef _node_plan(self, keys)
