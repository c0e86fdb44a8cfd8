"""Independent test oracles for toolcast.

These modules are written from the team's provider fact sheet ("provider-facts",
kept outside the repository; the public sources behind each fact are cited by URL
in ``spec/openai/*.yaml``) and from rejection messages users reported, never from
toolcast's own rule tables, so that they can catch mistakes in the compiler.
"""
