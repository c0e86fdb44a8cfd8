# The compiled build's declaration of walk/plans.py (see setup.py): the plan of a key shape as an
# extension type whose attributes are C fields, and the functions the descent calls per node as C
# functions (descent.pxd cimports them).

cdef dict _DEF_REFS
cpdef _def_ref(name)


cdef class NodePlan:
    cdef public object array
    cdef public tuple container_steps
    cdef public object leaf
    cdef public tuple leaf_steps
    cdef public object object
    cdef public bint own_null


cpdef _node_plan(w, keys)
