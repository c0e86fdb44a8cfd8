# The compiled build's declaration of walk/nullpaths.py (what is settled once the schema is
# walked): its functions over the walk's state as C functions, called from the other modules of
# the walk as C functions too where their .pxd cimports them (those holding a generator, a lambda
# or a nested function, which a C function cannot, stay Python functions).

cimport cython

from toolcast.walk.state cimport Walk
from toolcast.walk.state cimport _Bucket


@cython.locals(b=_Bucket, referrers=dict, has=set, todo=list)
cpdef _with_nulls_below(Walk w)
cpdef _check_progress(Walk w, dict out)
cpdef _unbounded(Walk w, has)
@cython.locals(b=_Bucket, by_ip=dict, seen=set, todo=list, buckets=dict)
cpdef _has_path(Walk w, path, attr, targets, dict index)
cpdef _refuse_recursion(Walk w)
