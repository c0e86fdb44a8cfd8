# The compiled build's declaration of walk/state.py's Walk (see setup.py): an extension type whose
# attributes are C fields, typed where the walk only ever sets one type (public: the source and
# its callers read and set them as before), and the recording methods every function of the walk
# calls as C methods. The methods that take **params stay Python methods.

cdef class _Bucket:
    cdef public list legit
    cdef public list nulls
    cdef public list refs


cdef class Walk:
    cdef public object r
    cdef public dict plan
    cdef public frozenset refusing
    cdef public frozenset lossy_codes
    cdef public object rank
    cdef public dict node_plans
    cdef public tuple object_flags
    cdef public tuple limit_values
    cdef public tuple enum_limits
    cdef public dict codes
    cdef public dict changes
    cdef public tuple object_codes
    cdef public frozenset annotations
    cdef public bint optional_allowed
    cdef public object key_re
    cdef public object enum_types
    cdef public bint objects_unlisted
    cdef public bint objects_keep_closed
    cdef public bint subset_form
    cdef public object type_keywords
    cdef public list diags
    cdef public list trans
    cdef public _Bucket bucket
    cdef public dict buckets
    cdef public tuple null_paths
    cdef public Py_ssize_t refusals
    cdef public Py_ssize_t n_props
    cdef public Py_ssize_t n_chars
    cdef public Py_ssize_t n_enum
    cdef public tuple deepest
    cdef public object root_raw
    cdef public bint guarded
    cdef public bint lossy_blocks
    cdef public bint builds
    cdef public bint builds_refused
    cdef public bint copies
    cdef public object optional_null
    cdef public bint branched
    cdef public bint scanned
    cdef public Py_ssize_t entered_props
    cdef public Py_ssize_t nodes_left
    cdef public bint gc_paused
    cdef public bint hold_gc
    cdef public object defs_raw
    cdef public object defs_src
    cdef public object defs_out
    cdef public object queue
    cdef public object _merging
    cdef public object ref_nulls
    cdef public Py_ssize_t null_cuts
    cdef public object ref_neutral
    cdef public object ref_names
    cdef public object merged_refs
    cdef public object inlined
    cdef public object inlining
    cdef public Py_ssize_t n_inlined
    cdef public object inline_sizes
    cdef public object root_inferred
    cdef public object bundled
    cdef public object copied
    cpdef fresh(self)
    cpdef record(self, pattern, sp, tuple params)
    cpdef change(self, pattern, sp, note=*)
    cpdef lossy(self)
    cpdef _blocked(self)
