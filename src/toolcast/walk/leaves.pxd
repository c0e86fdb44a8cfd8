# The compiled build's declaration of walk/leaves.py (the leaf keyword actions): its functions
# over the walk's state as C functions, called from the other modules of the walk as C functions
# too where their .pxd cimports them (those holding a generator, a lambda or a nested function,
# which a C function cannot, stay Python functions).

from toolcast.walk.state cimport Walk


cpdef _dropped(Walk w, k, ksp, dcode, tcode, bint refuses)
cpdef _record_steps(Walk w, dict s, steps, sp)
cpdef _count_enum(Walk w, list values, sp, k)
cpdef _nullable(Walk w, dict c, sp)
cpdef _count_null(Walk w, dict c, sp)
cpdef _ordered(Walk w, dict out)
