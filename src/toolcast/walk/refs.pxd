# The compiled build's declaration of walk/refs.py (definitions and references): its functions
# over the walk's state as C functions, called from the other modules of the walk as C functions
# too where their .pxd cimports them (those holding a generator, a lambda or a nested function,
# which a C function cannot, stay Python functions).

from toolcast.walk.leaves cimport _ordered
from toolcast.walk.state cimport Walk


cpdef _collect_defs(Walk w, dict root)
cpdef _target(Walk w, ref, sp)
cpdef _ref_name(Walk w, ref, name, note)
cpdef _resolve_raw(Walk w, ref, sp)
cpdef _root_target(Walk w)
cpdef _ref(Walk w, ref, dict out, sp, ip)
