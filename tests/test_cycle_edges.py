"""sendable._cycle_edges (policy sent_recursion): the references that lie on a cycle of the graph
of definitions, found by strongly connected components, are exactly those whose target reaches
their source again, in their own order; a chain of definitions deeper than the stack is no matter."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import examples

from toolcast.sendable import _cycle_edges

UNITS = st.sampled_from([(), ("$defs", "a"), ("$defs", "b"), ("$defs", "c"), ("$defs", "d"), ("definitions", "e")])


def _closure(edges: list) -> dict:
    """unit -> every unit one edge or more leads to: the direct targets, grown until nothing is added."""
    reach: dict = {}
    for a, b, *_ in edges:
        reach.setdefault(a, set()).add(b)
    grown = True
    while grown:
        grown = False
        for targets in reach.values():
            more = set().union(*(reach.get(b, set()) for b in targets)) - targets
            grown = grown or bool(more)
            targets |= more
    return reach


@examples(400)
@given(st.lists(st.tuples(UNITS, UNITS, st.integers(0, 9)), max_size=14))
def test_an_edge_is_on_a_cycle_when_its_target_reaches_its_source(raw: list) -> None:
    edges = [(a, b, (str(i),), ()) for a, b, i in raw]
    reach = _closure(edges)
    expected = [e for e in edges if e[0] in reach.get(e[1], ())]
    assert _cycle_edges(edges) == expected


def test_a_chain_deeper_than_the_stack_closes_one_cycle() -> None:
    n = 5000
    edges = [(("$defs", f"d{i}"), ("$defs", f"d{i + 1}"), (str(i),), ()) for i in range(n)]
    edges.append((("$defs", f"d{n}"), ("$defs", "d0"), ("last",), ()))
    edges.append((("$defs", "x"), ("$defs", "d0"), ("into",), ()))  # (into the cycle, not on it)
    assert _cycle_edges(edges) == edges[:-1]
