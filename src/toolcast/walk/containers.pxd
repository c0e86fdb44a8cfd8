# The compiled build's declaration of walk/containers.py (the object actions): its functions over
# the walk's state as C functions, called from the other modules of the walk as C functions too
# where their .pxd cimports them (those holding a generator, a lambda or a nested function, which
# a C function cannot, stay Python functions).

from toolcast.walk.state cimport Walk


cpdef _property_keys(Walk w, dict props, sp)
cpdef _optional_null(Walk w, name, psp, bint omit)
cpdef _object_rules(Walk w, dict s, dict props, sp, bint root)
cpdef _optional(Walk w, name, psp, pip, bint original_null)
cpdef _vouch_object(Walk w, dict s, dict props)
