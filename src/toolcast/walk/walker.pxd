# The compiled build's declaration of walk/walker.py (the walk's phases): its functions over the
# walk's state as C functions, called from the other modules of the walk as C functions too where
# their .pxd cimports them (those holding a generator, a lambda or a nested function, which a C
# function cannot, stay Python functions).

cimport cython

from toolcast.walk.combinators cimport _merge
from toolcast.walk.descent cimport _compile_defs, node
from toolcast.walk.document cimport _document
from toolcast.walk.nullpaths cimport _check_progress, _refuse_recursion
from toolcast.walk.refs cimport _collect_defs, _resolve_raw
from toolcast.walk.state cimport Walk


cpdef _inline_root_ref(Walk w, dict root)
@cython.locals(plain=bint)
cpdef _compile(Walk w, schema)
cpdef _set_root_type(Walk w, dict root)
cpdef _check_limits(Walk w)
