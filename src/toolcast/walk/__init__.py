"""The interpreter: one walk over a parameters schema under a rule version (see Walk)."""

from toolcast.walk.containers import PAUSE_GC_AFTER_PROPERTIES
from toolcast.walk.values import NEST_GUARD, describe
from toolcast.walk.walker import Walk, without_cycle_gc

__all__ = ["NEST_GUARD", "PAUSE_GC_AFTER_PROPERTIES", "Walk", "describe", "without_cycle_gc"]
