"""Compatibility: the schema semantics the walk asks about live in toolcast.walk.semantics."""

from toolcast.walk.semantics import *  # noqa: F403
from toolcast.walk.semantics import _canon, _disjoint, _finite, _neutral, _refs_in, _with_null_own  # noqa: F401
