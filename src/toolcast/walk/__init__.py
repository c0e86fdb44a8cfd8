"""The interpreter: one walk over a parameters schema under a rule version (walk_schema(Walk(rules), schema))."""

from toolcast.walk.containers import PAUSE_GC_AFTER_PROPERTIES
from toolcast.walk.state import Walk
from toolcast.walk.values import NEST_GUARD, describe
from toolcast.walk.walker import walk_schema, without_cycle_gc

__all__ = ["NEST_GUARD", "PAUSE_GC_AFTER_PROPERTIES", "Walk", "describe", "walk_schema", "without_cycle_gc"]
