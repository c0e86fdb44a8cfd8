"""Independent test oracles for toolcast.

These modules are written from the provider fact sheet
(``/work/shared/reference/provider-facts.md``) and from rejection messages users
reported, never from toolcast's own rule tables, so that they can catch mistakes
in the compiler.
"""
