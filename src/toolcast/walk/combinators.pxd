# The compiled build's declaration of walk/combinators.py (merges and combinator rewrites): its
# functions over the walk's state as C functions, called from the other modules of the walk as C
# functions too where their .pxd cimports them (those holding a generator, a lambda or a nested
# function, which a C function cannot, stay Python functions).

cimport cython

from toolcast.walk.refs cimport _resolve_raw
from toolcast.walk.state cimport Walk


cpdef _conflict(Walk w, sp, k)
cpdef _inline_budget(Walk w, target)
cpdef _inlines(Walk w, dict holder)
cpdef _merged_ref(Walk w, dict part, sp, Py_ssize_t depth)
cpdef _ref_merge(Walk w, ref, dict rest, sp, Py_ssize_t depth)
cpdef _merge(Walk w, list parts, sp, Py_ssize_t depth=*)
cpdef _merge_part(Walk w, part, sp, Py_ssize_t depth)
cpdef _merged_value(Walk w, dict out, k, v, sp)
cpdef _merged_null(Walk w, dict out, list typed_nulls, sp)
cpdef _settled_nullable(Walk w, dict s, sp)
@cython.locals(kw=dict)
cpdef _normalize(Walk w, dict s, sp, bint root)
cpdef _merged_all_of(Walk w, dict s, sp)
cpdef _one_of_as_any_of(Walk w, dict s, sp)
cpdef _any_of_siblings(Walk w, dict s, sp)
cpdef _implied_siblings(Walk w, dict s, list kept, target)
