# The compiled build's declaration of sent_valid.py's check (see setup.py): the kinds C integers and
# the loop's locals typed, so that each key of a schema object costs a C comparison or two.

cimport cython


cdef int _SCHEMA, _SCHEMA_ARRAY, _SCHEMA_MAP, _SCHEMA_OR_ARRAY, _BOOL_OR_SCHEMA, _DEPENDENCIES, _STRING
cdef int _FRAGMENTLESS, _ANCHOR, _ANCHOR_2019, _BOOL, _NUMBER, _POSITIVE, _COUNT, _STRINGS, _STRINGS_MAP, _TYPE
cdef int _ARRAY, _ENUM_04, _VOCABULARY


@cython.locals(table=dict, valid=dict, types=frozenset, found=list, stack=list, booleans=bint, kind=int)
cpdef list invalid_places(schema, str dialect)
cpdef _subschemas(int kind, str k, v, tuple entry, bint booleans, list found, push)
cpdef _members(dict v, str k, tuple entry, bint booleans, bint lists, list found, push)
