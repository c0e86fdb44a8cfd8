# The compiled build's declaration of walk/state.py's State (see setup.py): an extension type whose
# attributes are C fields (public: the Python source and callers read and set them as before), and
# the methods every class of Walk's line calls as C methods. The methods that take **params stay
# Python methods.

cdef class State:
    cdef public object r
    cdef public object plan
    cdef public object refusing
    cdef public object lossy_codes
    cdef public object rank
    cdef public object node_plans
    cdef public object object_flags
    cdef public object limit_values
    cdef public object enum_limits
    cdef public object codes
    cdef public object changes
    cdef public object object_codes
    cdef public object annotations
    cdef public object optional_allowed
    cdef public object key_re
    cdef public object enum_types
    cdef public object objects_unlisted
    cdef public object objects_keep_closed
    cdef public object subset_form
    cdef public object diags
    cdef public object trans
    cdef public object bucket
    cdef public object buckets
    cdef public object null_paths
    cdef public object refusals
    cdef public object n_props
    cdef public object n_chars
    cdef public object n_enum
    cdef public object deepest
    cdef public object root_raw
    cdef public object guarded
    cdef public object lossy_blocks
    cdef public object optional_null
    cdef public object branched
    cdef public object entered_props
    cdef public object gc_paused
    cdef public object hold_gc
    cdef public object defs_raw
    cdef public object defs_src
    cdef public object defs_out
    cdef public object queue
    cdef public object _merging
    cdef public object ref_nulls
    cdef public object ref_neutral
    cdef public object ref_names
    cdef public object merged_refs
    cpdef change(self, pattern, sp, note=*)
    cpdef lossy(self)
    cpdef _blocked(self)
    cpdef node(self, s, sp, ip, depth, nest, root=*)
    cpdef _container(self, s, out, sp, ip, depth, nest, root, is_object, is_array)
    cpdef _ordered(self, out)
    cpdef _descend_slot(self, k, v, slot, sp, ip, depth, nest)
    cpdef _merge(self, parts, sp, depth=*)
