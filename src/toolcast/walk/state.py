"""What one walk holds and records: the Walk every phase and keyword action of the walk is given."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from toolcast.model import NullPath
from toolcast.rules import Rules
from toolcast.walk import budget
from toolcast.walk.plans import _walk_tables


class _Bucket:
    """Null-path facts of one walk root (the schema root or one definition)."""

    __slots__ = ("legit", "nulls", "refs")

    def __init__(self) -> None:
        self.nulls: list[NullPath] = []  # optional, made nullable: strip here
        self.legit: list[NullPath] = []  # null is a real value here: never strip
        self.refs: list[tuple[NullPath, str]] = []  # (instance path, definition) of each $ref


# The value of a map a walk has not needed yet: shared, read-only, until the walk sets its own.
_EMPTY: Any = MappingProxyType({})
_NO_REFS: frozenset = frozenset()  # (one, not one per walk)


class Walk:
    """The state of one walk of one schema and the findings it records. The walk itself is plain
    functions that are given it: the phases in walk.walker (the document, the root, the descent,
    definitions, limits, null paths), the descent in walk.descent, and the keyword actions by
    family (walk.leaves, walk.keywords, walk.refs, walk.combinators, walk.containers,
    walk.nullpaths). Compiled (setup.py), it is an extension type whose attributes are the fields
    of one C struct (state.pxd) and those functions are C functions over it."""

    # The source build's instance layout: the fields state.pxd declares (56 attributes are past
    # what CPython keeps without a per-instance dict, and a dict per walk is a tenth of a small
    # tool's compile). Compiled, the extension type's struct is the layout.
    __slots__ = (
        "_merging", "annotations", "branched", "bucket", "buckets", "builds", "builds_refused", "bundled",
        "changes", "codes", "copied", "copies", "deepest", "defs_out", "defs_raw", "defs_src", "diags",
        "entered_props", "enum_limits", "enum_types", "gc_paused", "guarded", "hold_gc",
        "inline_sizes", "inlined", "inlining", "key_re", "limit_values", "lossy_blocks",
        "lossy_codes", "merged_refs", "n_chars", "n_enum", "n_inlined", "n_props", "node_plans", "nodes_left",
        "null_cuts", "null_paths", "object_codes", "object_flags", "objects_keep_closed",
        "objects_unlisted", "optional_allowed", "optional_null", "plan", "queue", "r", "rank",
        "ref_names", "ref_neutral", "ref_nulls", "refusals", "refusing", "root_inferred",
        "root_raw", "scanned", "subset_form", "trans", "type_keywords",
    )

    def __init__(self, rules: Rules) -> None:
        # The rule version's tables (see plans._walk_tables), read on every node; `subset_form`:
        # whether the result is written in the OpenAPI subset (walk.subset); `type_keywords`: policy
        # type_keywords per-type, walk.vacuous's table, else None.
        (self.r, self.plan, self.refusing, self.lossy_codes, self.rank, self.node_plans, self.object_flags,
         self.limit_values, self.enum_limits, self.codes, self.changes, self.object_codes, self.annotations,
         self.optional_allowed, self.key_re, self.enum_types, self.objects_unlisted, self.objects_keep_closed,
         self.subset_form, self.type_keywords) = _walk_tables(rules)
        # Set by a caller that will not send a schema with a lossy change strict (compile_tool,
        # unless allow_lossy): such a schema's null paths would never be used, like a refused one's.
        self.lossy_blocks = False
        # Whether the walk builds the strict form; without it, every finding, null path and count
        # is still recorded, but no property's form is kept (descent._object). Cleared before the
        # walk by a caller that never uses the form, and by the walk on its first refusal where
        # the caller cleared `builds_refused` (no refused form is sent: compile_tool, strict_schema).
        self.builds = True
        self.builds_refused = True
        # Whether the caller may send the original without strict, so that a scan's pass made after
        # the walk also makes that copy (walker._vouched, Walk.copied): cleared by a caller that never
        # sends it for this tool (compile_tool: a refused name, strict=True).
        self.copies = True
        # What an optional property that already accepts null becomes (compile_tool's
        # optional_null): "value", required with null a real value the handler receives, or
        # "omit", null stripped too.
        self.optional_null = "value"
        # Properties of the objects entered so far, and whether this walk paused the collector (see
        # PAUSE_GC_AFTER_PROPERTIES); a caller that sets hold_gc turns it back on itself.
        self.entered_props = 0
        # The nodes the walk may still visit (descent.node, semantics.allows_null), counted down from
        # walk.budget's NODE_BUDGET across the whole compile (fresh() leaves it): past 0 the walk stops.
        self.nodes_left = budget.NODE_BUDGET
        self.gc_paused = False
        self.hold_gc = False
        self.fresh()

    def fresh(self) -> None:
        """Set what the walk records to what it is before the walk: also the start of a walk
        again from the document scan, when the walk that did without it could not vouch for every
        value (see walker._compile)."""
        # Records: (code, base, tokens, params) and (code, base, tokens, note); the null paths
        # noted per definition ("" the root), and the root's bucket.
        self.diags: list[tuple] = []
        self.trans: list[tuple] = []
        self.bucket = _Bucket()
        self.buckets: dict[str, _Bucket] = {"": self.bucket}
        self.null_paths: tuple[NullPath, ...] = ()
        # Counts for the limits, and the deepest container met (depth, place).
        self.refusals = 0
        self.n_props = 0
        self.n_chars = 0
        self.n_enum = 0
        self.deepest: tuple = (0, ())
        self.root_raw: Any = None
        self.guarded = False  # whether node() refused a schema nested past NEST_GUARD
        # Whether a place was walked twice, in anyOf branches or a kept schema slot (so a null
        # path may repeat).
        self.branched = False
        # Whether every value the walk met so far passed as the document scan passes it (see
        # walker._compile): set by a walk that starts without the scan, cleared where the walk
        # leaves a value unread or reads one some other way than a plan's copy.
        self.scanned = False
        # Definitions, the reference caches and the merge guard: shared empty values until the walk
        # writes its own (most schemas need none of them).
        self.defs_raw: Any = _EMPTY  # def name -> raw schema
        self.defs_src: Any = _EMPTY  # def name -> the keyword it came from
        self.defs_out: Any = _EMPTY  # def name -> compiled schema (None while queued)
        self.queue: Any = ()  # definitions referred to, in order (repeats included)
        self._merging: Any = _NO_REFS  # $refs being inlined now (a schema defined as itself)
        self.ref_nulls: Any = _EMPTY  # allows_null of each $ref target (see semantics.allows_null)
        self.null_cuts = 0  # the paths allows_null cut short at a $ref of its chain (see there)
        self.ref_neutral: Any = _EMPTY  # whether each $ref target says nothing about null (semantics._neutral)
        self.ref_names: Any = _EMPTY  # $ref -> (definition, note) once resolved (see _target)
        self.merged_refs: Any = _EMPTY  # ($ref, place) -> its target merged there (see _merged_ref)
        # The schema objects holding a `$ref` whose target the node being normalized inlined, and
        # those whose inlined content is being walked: id -> (object, depth) (see descent._inlined).
        self.inlined: Any = ()
        self.inlining: Any = _EMPTY
        # The schema nodes inlined so far (see INLINE_GUARD), and each target's count: id -> nodes.
        self.n_inlined = 0
        self.inline_sizes: Any = _EMPTY
        self.root_inferred: Any = None  # the keyword the root's inferred `type: object` came from
        # (document, dialect, bundle's result, its diagnostics, its changes) where the document pass
        # bundled the document (walk.document): the original sent without strict, when it bundles
        # the same document in the same dialect, takes these (sent_refs.local_references).
        self.bundled: Any = None
        # (document, its copy, sent_copy.Seen of the copy) where the document scan made the copy sent
        # without strict in its own pass (walk.document): compile._original takes it for that document.
        self.copied: Any = None

    # -- recording ---------------------------------------------------------------------
    def diag(self, code: str, sp: tuple, **params: Any) -> None:
        """Record diagnostic `code` (one the rules name) at `sp`."""
        if code in self.refusing:
            self.refusals += 1
        self.diags.append((code, "#", sp, tuple(params.items())))

    def report(self, pattern: str, sp: tuple, **params: Any) -> None:
        """Record the rules' diagnostic for `pattern` (see walk.actions) at `sp`."""
        self.record(pattern, sp, tuple(params.items()))

    def record(self, pattern: str, sp: tuple, params: tuple) -> None:
        """report(), its parameters given as (name, value) pairs: compiled, a C call, which the
        commonest findings take (a call with keyword arguments builds a dict of them first)."""
        code = self.codes[pattern]
        if code in self.refusing:
            self.refusals += 1
        self.diags.append((code, "#", sp, params))

    def refuse(self, pattern: str, sp: tuple, **params: Any) -> dict:
        self.report(pattern, sp, **params)
        return {}

    def change(self, pattern: str, sp: tuple, note: str = "") -> None:
        """Record the rules' transformation for change pattern `pattern` at `sp`."""
        self.trans.append((self.changes[pattern], "#", sp, note))

    def lossy(self) -> bool:
        """Whether the walk has recorded a lossy change."""
        lossy_codes = self.lossy_codes
        # A loop, not any() or isdisjoint over a map: compiled, it makes no generator or call per record.
        for rec in self.trans:  # noqa: SIM110
            if rec[0] in lossy_codes:
                return True
        return False

    def _blocked(self) -> bool:
        """Whether this schema cannot go strict whatever comes next: it refused something, or
        changed something lossily for a caller that blocks lossy changes."""
        return bool(self.refusals) or (self.lossy_blocks and self.lossy())
