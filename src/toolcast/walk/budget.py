"""The node budget: how many schema nodes one tool's walk may visit before the tool is refused (a Python-built document whose subtrees are shared is walked once per path)."""

from __future__ import annotations

# JSON text cannot share a subtree, but a document built in Python can: a dict whose two
# properties are the same object, at each of 40 levels, is a tree of 2**40 nodes to every pass that
# reads it place by place (the walk, the null paths, the copy sent without strict). The walk counts
# the nodes it visits (descent.node and semantics.allows_null count down Walk.nodes_left, across
# the whole compile of one tool); past this many it stops, and the tool is refused in every mode
# (pattern too-many-schema-nodes, in every provider's policy always_refused): no form of it can be
# written out or sent. The largest real schema visits 18,029 (tests/corpus/large, renovate, under
# the rules that walk it most; bfcl at most 21, mcp 372), about twice that where the walk starts again after the
# document scan: the budget is some 50 times that. Past it, the refusal comes after the seconds
# a million nodes take, instead of never.
NODE_BUDGET = 1_000_000


class SchemaTooLarge(Exception):
    """Raised by the walk when a tool's document has been visited past NODE_BUDGET nodes; `place` is
    the schema path of the node that passed it. walker.walk_schema reports it (too-many-schema-nodes)."""

    def __init__(self, place: tuple) -> None:
        super().__init__(place)
        self.place = place
