# The compiled build's declaration of walk/descent.py (the descent): its functions over the walk's
# state as C functions, called from the other modules of the walk as C functions too where their
# .pxd cimports them (those holding a generator, a lambda or a nested function, which a C function
# cannot, stay Python functions).

cimport cython

from toolcast.walk.combinators cimport _normalize
from toolcast.walk.containers cimport _optional, _property_keys, _vouch_object
from toolcast.walk.keywords cimport _kept
from toolcast.walk.leaves cimport _count_null, _dropped, _nullable, _ordered, _record_steps
from toolcast.walk.plans cimport NodePlan, _node_plan
from toolcast.walk.refs cimport _ref
from toolcast.walk.state cimport Walk


cpdef _keywords(Walk w, dict s, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
cpdef _compile_defs(Walk w)
cpdef _descend_slot(Walk w, k, v, slot, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
cpdef _any_of(Walk w, list branches, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
@cython.locals(np=NodePlan)
cpdef _object(Walk w, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root)
@cython.locals(child=dict, d=dict)
cpdef _property(Walk w, name, sub, bint optional, sp, ip, Py_ssize_t depth, Py_ssize_t nest, plan=*, bint builds=*)
cpdef _array(Walk w, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest)
@cython.locals(np=NodePlan, left=Py_ssize_t)
cpdef node(Walk w, s, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root=*, plan=*, bint normalized=*)
cpdef _inlined(Walk w, s, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root)
cpdef _inlined_again(Walk w, ref, bint same_depth, sp)
cpdef _not_a_node(Walk w, s, sp, Py_ssize_t nest)
cpdef _structure(Walk w, dict s, dict out, sp, ip, Py_ssize_t depth, Py_ssize_t nest, bint root, bint has_any_of)
