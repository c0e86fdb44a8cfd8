# The compiled build's declaration of walk/plans.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.state cimport State


cdef class Plans(State):
    cpdef _node_plan(self, keys)
