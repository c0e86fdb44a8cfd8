# The compiled build's declaration of walk/document.py's class (see setup.py and state.pxd): an
# extension type extending the one before it in Walk's line, its methods callable as C methods
# (those holding a generator, a lambda or a nested function, which a C method cannot, stay Python
# methods).

from toolcast.walk.plans cimport Plans


cdef class Document(Plans):
    cpdef _document(self, schema)
    cpdef _dialect(self, dict schema, Py_ssize_t flags)
