# The compiled build's declaration of walk/keywords.py (the keyword actions): its functions over
# the walk's state as C functions, called from the other modules of the walk as C functions too
# where their .pxd cimports them (those holding a generator, a lambda or a nested function, which
# a C function cannot, stay Python functions).

from toolcast.walk.leaves cimport _count_enum
from toolcast.walk.state cimport Walk


cpdef _kept(Walk w, Py_ssize_t op, k, v, sp)
cpdef _enum_types_ok(Walk w, k, list values, sp)
cpdef const_to_enum(Walk w, k, v, ksp, dict out)
cpdef one_of_to_any_of(Walk w, k, v, ksp, dict out)
cpdef openapi_nullable(Walk w, k, v, ksp, dict out)
cpdef definitions_to_defs(Walk w, k, v, ksp, dict out)
cpdef merge_all_of(Walk w, k, v, ksp, dict out)
