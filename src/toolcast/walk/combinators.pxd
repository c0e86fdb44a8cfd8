# The compiled build's declaration of walk/combinators.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

cimport cython

from toolcast.walk.refs cimport References


cdef class Combinators(References):
    cpdef _conflict(self, sp, k)
    cpdef _inline_budget(self, target)
    cpdef _inlines(self, dict holder)
    cpdef _merged_ref(self, dict part, sp, Py_ssize_t depth)
    cpdef _ref_merge(self, ref, dict rest, sp, Py_ssize_t depth)
    cpdef _merge(self, list parts, sp, Py_ssize_t depth=*)
    cpdef _merge_part(self, part, sp, Py_ssize_t depth)
    cpdef _merged_value(self, dict out, k, v, sp)
    cpdef _merged_null(self, dict out, list typed_nulls, sp)
    cpdef _settled_nullable(self, dict s, sp)
    @cython.locals(kw=dict)
    cpdef _normalize(self, dict s, sp, bint root)
    cpdef _merged_all_of(self, dict s, sp)
    cpdef _one_of_as_any_of(self, dict s, sp)
    cpdef _any_of_siblings(self, dict s, sp)
    cpdef _implied_siblings(self, dict s, list kept, target)
