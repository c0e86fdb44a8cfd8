# The compiled build's declaration of walk/semantics.py's hottest question (see setup.py):
# allows_null, asked of every optional property and each of its branches, as C functions that
# read their schema object as a dict.

cpdef allows_null(s, walk, _seen=*, Py_ssize_t _depth=*)
cpdef _object_allows_null(dict s, walk, _seen, Py_ssize_t _depth)
