"""After the walk: finiteness of the reference graph and the null paths with every `$ref` expanded."""

from __future__ import annotations

from functools import partial
from itertools import chain, repeat
from typing import Any

from toolcast.model import ITEMS, NullPath
from toolcast.walk.semantics import _finite, _refs_in
from toolcast.walk.state import Walk
from toolcast.walk.values import def_ref_name

# Null paths listed at most: `$ref`s multiply the places where null is stripped (a definition with
# two references to the next, n deep, has 2**n), so a small schema could otherwise take
# exponential time and memory. Beyond it the schema is refused (too-many-null-paths).
NULL_PATHS_GUARD = 10_000


# -- after the walk --------------------------------------------------------------------
def _check_finite(w: Walk, out: dict) -> None:
    """Refuse what no finite value satisfies: required recursion, bare `$ref` cycles."""
    defs = {name: d for name, d in w.defs_out.items() if isinstance(d, dict)}
    for name, d in defs.items():
        seen = {name}
        cur = d
        while len(cur) == 1 and "$ref" in cur and cur["$ref"].startswith("#/$defs/"):
            nxt = def_ref_name(cur["$ref"])  # as _def_ref wrote it
            if nxt in seen:
                w.report("unsatisfiable-schema", (w.defs_src.get(name, "$defs"), name),
                          value="a cycle of $refs with no schema in it")
                return
            seen.add(nxt)
            cur = defs.get(nxt, {})
    if w.refusals or not w.builds:  # (the form is not built: no finding read from it counts)
        return
    # Least fixed point: a definition is finite once some finite value satisfies it. A
    # worklist: a schema is looked at again only when a definition it refers to turned
    # finite (repeated sweeps would be quadratic in a chain of definitions).
    finite: dict[str, bool] = {name: False for name in defs}
    finite[""] = False
    schemas = {"": out, **defs}
    referrers: dict[str, list[str]] = {}
    for name in schemas:
        bucket = w.buckets.get(name)
        targets = {t for _, t in bucket.refs} if bucket is not None else _refs_in(schemas[name])
        for t in targets:
            referrers.setdefault(t, []).append(name)
    todo = list(schemas)
    while todo:
        name = todo.pop()
        if not finite[name] and _finite(schemas[name], finite):
            finite[name] = True
            todo.extend(n for n in referrers.get(name, ()) if not finite[n])
    if not finite[""]:
        w.report("unsatisfiable-schema", (), value="no finite value satisfies it: a required property recurses without end")


def _finish_null_paths(w: Walk) -> None:
    buckets = w.buckets
    root = buckets[""]
    if len(buckets) == 1 and not root.refs:
        # No definitions: the root's own paths, nothing to expand (most tools).
        nulls = root.nulls
        if not nulls:
            return
        legit = set(root.legit) if root.legit else ()
    else:
        nulls, legit = _expand_null_paths(w)
        if not nulls:
            return
    for p in nulls:
        if p in legit:
            w.report("ambiguous-null-path", (), value="/".join("*" if s is ITEMS else s for s in p))
            return
    if w.builds:  # (a form not built uses no null path)
        w.null_paths = tuple(dict.fromkeys(nulls))


def _expand_null_paths(w: Walk) -> tuple[list[NullPath] | None, Any]:
    """Null paths (and legit null paths) of the root with every $ref expanded, in walk order.

    Linear in the reference graph plus the paths produced: no per-definition graph search,
    no recursion (a chain of definitions may be far longer than Python's stack).
    """
    buckets = w.buckets
    has = _with_nulls_below(w)
    if has and _unbounded(w, has):
        return None, ()
    memo: dict[tuple[str, str, bool], Any] = {}
    expand = partial(_expand, w, has=has, memo=memo)
    n_nulls = expand("nulls", counting=True)
    if n_nulls > NULL_PATHS_GUARD:
        w.report("too-many-null-paths", (), count=n_nulls, limit=NULL_PATHS_GUARD)
        return None, ()
    if not n_nulls:
        return None, ()
    n_legit = expand("legit", counting=True) if any(b.legit for b in buckets.values()) else 0
    if w._blocked() or not w.builds:
        # Refused already (or lossy where that blocks), or the form is not built: no path will
        # be used, and only an ambiguous one is still reported.
        # Each legit path is looked for among the null paths without listing them.
        if not n_legit:
            return None, ()
        if n_legit <= NULL_PATHS_GUARD:
            index: dict[str, tuple] = {}
            if not any(_has_path(w, p, "nulls", has, index) for p in dict.fromkeys(expand("legit"))):
                return None, ()
    if n_legit <= NULL_PATHS_GUARD:
        return expand("nulls"), (set(expand("legit")) if n_legit else ())
    # Too many legit paths to list: each null path is looked for among them instead.
    return expand("nulls"), _PathSearch(w, "legit", set(buckets))


def _expand(w: Walk, attr: str, has: set, memo: dict, counting: bool = False) -> Any:
    """The root's `attr` paths ("nulls" or "legit") with every $ref expanded, or with `counting`
    how many there are; `has` holds the definitions with something to strip, `memo` the
    finished definitions of this expansion."""
    buckets = w.buckets
    # Depth-first from the root; a definition already on the path is skipped (cycles
    # only ever carry legit paths here), a finished one is reused from the memo.
    # `counting` gives how many paths the listing would hold, in time linear in the
    # reference graph, without listing them.
    def start(name: str) -> Any:
        paths = getattr(buckets[name], attr)
        return len(paths) if counting else list(paths)

    frames = [["", start(""), 0]]
    on_path = {""}
    done: Any = None
    while frames:
        frame = frames[-1]
        name = frame[0]
        refs = buckets[name].refs
        if done is not None:
            if counting:
                frame[1] += done
            else:
                frame[1].extend(map(_Join, repeat(refs[frame[2] - 1][0]), done))
            done = None
        while frame[2] < len(refs):
            ip, target = refs[frame[2]]
            frame[2] += 1
            if target in on_path or target not in buckets:
                continue
            if attr == "nulls" and target not in has:
                continue
            sub = memo.get((target, attr, counting))
            if sub is not None:
                if counting:
                    frame[1] += sub
                else:
                    frame[1].extend(map(_Join, repeat(ip), sub))
                continue
            frames.append([target, start(target), 0])
            on_path.add(target)
            break
        else:
            memo[(name, attr, counting)] = done = frame[1]
            frames.pop()
            on_path.discard(name)
    if counting:
        return done
    # Joined only here, once per path: a prefix per level would copy a path through a
    # chain of n definitions n times.
    return [_flat(p) for p in done] if done else []


def _with_nulls_below(w: Walk) -> set[str]:
    """The definitions whose subtree has something to strip: those reaching a bucket with nulls."""
    buckets = w.buckets
    referrers: dict[str, list[str]] = {}
    for name, b in buckets.items():
        for _, t in b.refs:
            referrers.setdefault(t, []).append(name)
    has = {name for name, b in buckets.items() if b.nulls}
    todo = list(has)
    while todo:
        for name in referrers.get(todo.pop(), ()):
            if name not in has:
                has.add(name)
                todo.append(name)
    return has


def _unbounded(w: Walk, has: set[str]) -> bool:
    """Whether a definition of `has` is recursive, which makes the null paths unbounded (reported)."""
    # A recursive definition that has something to strip makes the paths unbounded.
    cyclic = _cyclic(w, has)
    for name in sorted(has):
        if name in cyclic:
            w.report("unbounded-null-paths", (w.defs_src.get(name, "$defs"), name) if name else (),
                        name=name or "#")
            return True
    return False


def _has_path(w: Walk, path: NullPath, attr: str, targets: set[str], index: dict[str, tuple]) -> bool:
    """Whether `path` is one of the root's `attr` paths ("nulls" or "legit") with $refs to
    `targets` expanded, without listing them: a search from the root through each $ref whose
    instance path begins what is left of `path`. For null paths (once no definition in `has`
    is recursive) this is exactly what _expand_null_paths lists. `index` keeps, per bucket, its
    paths as a set and its $refs by instance path."""
    buckets = w.buckets
    n = len(path)
    seen = set()
    todo = [("", 0)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        name, i = state
        entry = index.get(name)
        if entry is None:
            b = buckets[name]
            by_ip: dict[NullPath, list[str]] = {}
            for ip, target in b.refs:
                if target in targets and target in buckets:
                    by_ip.setdefault(ip, []).append(target)
            entry = index[name] = (set(getattr(b, attr)), by_ip)
        paths, by_ip = entry
        rest = path[i:]
        if rest in paths:
            return True
        if by_ip:
            for k in range(n - i + 1):
                for target in by_ip.get(rest[:k], ()):
                    todo.append((target, i + k))
    return False


def _check_progress(w: Walk, out: dict) -> None:
    """Refuse each definition (or the root) that reaches itself through `$ref`s without a step
    into the instance: through keywords that apply to the same value only (anyOf, merged allOf
    parts; the slots whose depth is 0), so that it stands for itself again (`A: {anyOf:
    [{type: string}, {$ref: A}]}`). Evaluating it against a value it does not accept never
    ends, and JSON Schema leaves its meaning undefined. A cycle of bare `$ref`s is refused by
    _check_finite already (no value satisfies it). Read in the compiled schemas: what is sent."""
    # A $ref at its definition's own place was recorded there with an empty instance path (so
    # was one below a slot that steps into the value but keeps the path): the others are not
    # read again.
    candidates = []
    for name, bucket in w.buckets.items():
        for ip, _ in bucket.refs:
            if not ip:
                candidates.append(name)
                break
    if not candidates:
        return
    schemas = {"": out, **{name: d for name, d in w.defs_out.items() if type(d) is dict}}
    in_place = {k: slot.kind for k, slot in w.r.slots.items() if slot.depth == 0}  # keyword -> slot kind
    edges: dict[str, list[str]] = {}
    for name in candidates:
        targets: list[str] = []
        stack = [schemas.get(name)]
        while stack:
            x = stack.pop()
            if type(x) is not dict:
                continue
            target = def_ref_name(x.get("$ref"))
            if target is not None and target in schemas:
                targets.append(target)
            for k, v in x.items():
                kind = in_place.get(k)
                if kind is None:
                    continue  # (not a schema, or one for a property, an item, ...: a step into the value)
                if kind == "map" and type(v) is dict:
                    stack.extend(v.values())
                elif type(v) is list:
                    stack.extend(v)
                else:
                    stack.append(v)
        if targets:
            edges[name] = list(dict.fromkeys(targets))
    # Only a schema with such a $ref, to one that has one too, can be on a cycle: pruned so, the
    # graph is nearly always empty (a `$ref` beside `null` in an anyOf names an object).
    while True:
        kept = {}
        for name, targets in edges.items():
            reached = [t for t in targets if t in edges]
            if reached:
                kept[name] = reached
        settled = len(kept) == len(edges)
        edges = kept
        if settled:
            break
    if not edges:
        return
    cyclic = _cyclic(w, set(edges), edges)
    for name in ("", *w.defs_raw):
        if name in cyclic and not (name and len(schemas[name]) == 1 and "$ref" in schemas[name]):
            w.report("infinite-recursion", (w.defs_src.get(name, "$defs"), name) if name else (),
                        name=name or "#")


def _cyclic(w: Walk, among: set[str], edges: dict[str, list[str]] | None = None) -> set[str]:
    """The definitions of `among` that reach themselves through $refs without leaving it
    (Tarjan's strongly connected components of the graph `among` induces, or of `edges`, each
    definition's targets within `among`). Whatever refers to a member of `among` is a member
    (as in _expand_null_paths' `has`), so no cycle through a member leaves it."""
    if edges is None:
        buckets = w.buckets
        edges = {name: list(dict.fromkeys(t for _, t in buckets[name].refs if t in among)) for name in among}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cyclic: set[str] = set()
    for start in among:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            succ = edges[node]
            if i < len(succ):
                work.append((node, i + 1))
                t = succ[i]
                if t == node:
                    cyclic.add(node)
                if t not in index:
                    work.append((t, 0))
                elif t in on_stack:
                    low[node] = min(low[node], index[t])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1:
                    cyclic.update(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return cyclic


def _refuse_recursion(w: Walk) -> None:
    """Under policy recursion `refuse`: report each definition (or the root) that reaches itself
    through $refs, in definition order."""
    cyclic = _cyclic(w, set(w.buckets))
    for name in ("", *w.defs_raw):
        if name in cyclic:
            w.report("recursive-schema", (w.defs_src.get(name, "$defs"), name) if name else (),
                        name=name or "#")


class _PathSearch:
    """`p in` answered by _has_path: the paths of one kind, too many to list."""

    __slots__ = ("attr", "index", "targets", "walk")

    def __init__(self, walk: Any, attr: str, targets: set[str]) -> None:
        self.walk, self.attr, self.targets, self.index = walk, attr, targets, {}

    def __contains__(self, path: NullPath) -> bool:
        return _has_path(self.walk, path, self.attr, self.targets, self.index)


class _Join:
    """A null path not yet joined: `head` (an instance path) followed by `tail` (a path or a _Join)."""

    __slots__ = ("head", "tail")

    def __init__(self, head: NullPath, tail: Any) -> None:
        self.head, self.tail = head, tail


def _flat(p: Any) -> NullPath:
    if type(p) is not _Join:
        return p
    parts = []
    while type(p) is _Join:
        parts.append(p.head)
        p = p.tail
    parts.append(p)
    return tuple(chain.from_iterable(parts))
