"""Compatibility: the interpreter is the toolcast.walk package (this name is kept for importers)."""

from toolcast.walk import NEST_GUARD, PAUSE_GC_AFTER_PROPERTIES, Walk, describe, without_cycle_gc

__all__ = ["NEST_GUARD", "PAUSE_GC_AFTER_PROPERTIES", "Walk", "describe", "without_cycle_gc"]
