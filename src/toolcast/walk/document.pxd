# The compiled build's declaration of walk/document.py (the document read before the walk): its
# functions over the walk's state as C functions, called from the other modules of the walk as C
# functions too where their .pxd cimports them (those holding a generator, a lambda or a nested
# function, which a C function cannot, stay Python functions).

from toolcast.walk.state cimport Walk


cpdef _document(Walk w, schema)
cpdef _dialect(Walk w, dict schema, Py_ssize_t flags, marked=*)
cpdef bint as_declared(Walk w, str dialect, Py_ssize_t flags)
cpdef bint _later(str dialect, Py_ssize_t flags)
