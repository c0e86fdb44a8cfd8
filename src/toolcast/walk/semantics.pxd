# The compiled build's declaration of walk/semantics.py's hottest functions (see setup.py):
# allows_null, asked of every optional property and each of its branches, and the in-place
# nullable of a node the walk built, as C functions that read their schema object as a dict.

cpdef allows_null(s, walk, _seen=*, Py_ssize_t _depth=*)
cpdef _object_allows_null(dict s, walk, _seen, Py_ssize_t _depth)
cpdef _with_null_own(dict c, annotations)
