"""The rule-table registry: resolves `VERSION`, `openai@VERSION` or `latest` to generated tables."""

from __future__ import annotations

import importlib
import os
import re
import sys
from functools import cache
from types import ModuleType

from toolcast import _tables
from toolcast.model import UnknownRulesError
from toolcast.records import BudgetEntry, LimitEntry

PROVIDERS = tuple(sorted(_tables.VERSIONS))
# The rule versions known: the generated tables', and those of spec folders loaded at run time
# (load_spec_dir; TOOLCAST_SPEC_PATH, read on the first look-up).
VERSIONS: dict[str, tuple[str, ...]] = dict(_tables.VERSIONS)
DEFAULTS: dict[str, str] = dict(_tables.DEFAULTS)
FAMILIES: dict[tuple[str, str], str] = dict(_tables.FAMILIES)
# family -> (target, api, wire section) of its default version, for the target registry.
WIRES: dict[str, tuple] = dict(_tables.WIRES)
_LOADED: dict[tuple[str, str], ModuleType] = {}  # (provider, version) -> a loaded folder's table module
_FROM_ENV: list[bool] = []  # whether TOOLCAST_SPEC_PATH was read
_ENV_ERROR: list[SpecFolderError] = []  # why one of its folders was not loaded (env_error)
_GENERATION = [0]  # how many spec folders were loaded (generation: the targets' registry reads it)
# What Rules.counted gives for a counter a spec sets no limit on: nothing is ever past it.
_UNBOUNDED = LimitEntry(sys.maxsize, "", (), "")


class Rules:
    """One resolved rule version, with lookups precomputed for the interpreter."""

    def __init__(self, module: ModuleType):
        m = module
        self.module = m
        self.provider: str = m.PROVIDER
        self.version: str = m.VERSION
        self.id = f"{m.PROVIDER}@{m.VERSION}"
        # The target and API a rule family for one API compiles (gemini-parameters: gemini,
        # parameters); otherwise the provider is the target and the API is the caller's.
        self.target: str = getattr(m, "TARGET", m.PROVIDER)
        self.api: str | None = getattr(m, "API", None)
        # The wire shapes (spec `wire`: the tool envelope, where calls and results sit), when stated.
        self.wire: dict | None = getattr(m, "WIRE", None)
        self.reviewed: str = m.REVIEWED
        self.extends: str | None = m.EXTENDS
        self.summary: str = m.SUMMARY
        self.keywords: dict = m.KEYWORDS
        self.unknown_keyword: tuple = m.UNKNOWN_KEYWORD
        self.slots: dict = m.SLOTS
        self.formats = frozenset(m.FORMATS)
        self.limits: dict = m.LIMITS
        self.limit_of: dict[str, LimitEntry] = {e.counts: e for e in m.LIMITS.values()}
        # Request budgets (compile_tools): what each counts -> its entry; most providers state few.
        self.budgets: dict[str, BudgetEntry] = getattr(m, "BUDGETS", {})
        self.diagnostics: dict = m.DIAGNOSTICS
        self.transformations: dict = m.TRANSFORMATIONS
        # The catalogue: pattern (toolcast.walk.actions) -> this provider's code, for diagnostics
        # and for transformations.
        self.patterns: dict[str, str] = m.PATTERNS
        self.changes: dict[str, str] = m.CHANGES
        self.optional_codes = (m.PATTERNS["strict-optional-property"], m.PATTERNS["nullable-instead-of-omitted"])
        # The transformation records of a renamed input schema and of a tool sent strict (the same
        # for every tool: built once).
        self.tool_records = ((m.CHANGES["renamed-input-schema-to-parameters"], "#", (), ""),
                             (m.CHANGES["enabled-strict-mode"], "#", (), ""))
        # Structural policy (see spec.schema.json, policy): the rules the walk applies, what may
        # stand beside `$ref`, and the codes that refuse a tool in every mode.
        self.policy: dict[str, str] = m.POLICY
        self.ref_siblings = frozenset(m.REF_SIBLINGS)
        self.always_refused = frozenset(m.ALWAYS_REFUSED)
        # Property names must match this in full (None: any name), and whether recursion refuses.
        key_pattern = getattr(m, "PROPERTY_KEY_PATTERN", None)
        self.property_key_re = re.compile(key_pattern) if key_pattern is not None else None
        self.property_key_pattern: str | None = key_pattern
        self.refuses_recursion = m.POLICY.get("recursion", "allow") == "refuse"
        self.optional_allowed = m.POLICY["optional_properties"] == "allowed"
        # A tool not sent strict carries its original schema, or (policy non_strict `converted`)
        # the walk's converted schema with its lossy changes.
        self.sends_original = m.POLICY.get("non_strict", "original") == "original"
        # The keywords the root of a form sent without strict is rid of (toolcast.sendable).
        self.sent_root_keywords: tuple[str, ...] = getattr(m, "SENT_ROOT_KEYWORDS", ())
        # The keywords dropped anywhere in it, and those whose empty list refuses the tool (toolcast.sent_rules).
        self.sent_drop: tuple[str, ...] = getattr(m, "SENT_DROP", ())
        self.sent_empty: tuple[str, ...] = getattr(m, "SENT_EMPTY", ())
        # The combinators that stand alone in their schema under policy sent_any_of `alone` (toolcast.sendable).
        self.sent_alone: tuple[str, ...] = getattr(m, "SENT_ALONE", ("anyOf",))
        # The JSON types enum and const values may have (None: any scalar).
        enum_types = getattr(m, "ENUM_VALUE_TYPES", None)
        self.enum_types = frozenset(enum_types) if enum_types is not None else None
        self.sources: dict = m.SOURCES
        self.output_order: tuple = m.OUTPUT_ORDER
        self.order_index = {k: i for i, k in enumerate(m.OUTPUT_ORDER)}
        self.name_re = re.compile(m.NAME_PATTERN)
        self.name_pattern: str = m.NAME_PATTERN
        self.name_max_length: int = m.NAME_MAX_LENGTH
        self.description_max_bytes: int = m.DESCRIPTION_MAX_BYTES
        self.description_max_chars: int | None = getattr(m, "DESCRIPTION_MAX_CHARS", None)
        self.description_strip_re = re.compile(
            "[" + "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in m.DESCRIPTION_STRIP_RANGES) + "]"
        )
        self.description_strip_ascii_free = all(lo > 0x7F for lo, _ in m.DESCRIPTION_STRIP_RANGES)
        # An ASCII description up to this long needs no change (0: every description is looked at).
        self.description_ascii_max = min(self.description_max_bytes, self.description_max_chars or self.description_max_bytes) if self.description_strip_ascii_free else 0
        # Keywords whose class drops them, for quick "is this sibling kept?" questions.
        self.kept = frozenset(k for k, e in m.KEYWORDS.items() if e[1] != "drop")

    def dropped(self, keyword: str) -> bool:
        """Whether the walk drops `keyword` (a listed keyword's action, else the unknown-keyword rule)."""
        entry = self.keywords.get(keyword)
        return (entry[1] if entry is not None else self.unknown_keyword[0]) == "drop"

    def limit(self, name: str) -> int:
        return self.limits[name][0]

    def counted(self, counter: str) -> LimitEntry:
        """The limit on what the walk counts as `counter` (walk.actions.COUNTERS; the generator
        checks that none has two); one the provider documents no figure for is unbounded."""
        entry = self.limit_of.get(counter)
        return _UNBOUNDED if entry is None else entry

    def __repr__(self) -> str:
        return f"<Rules {self.id}>"


class SpecFolderError(UnknownRulesError):
    """A spec folder loaded at run time that the generator refuses; the message names file:line."""


def load_spec_dir(path: str | os.PathLike) -> tuple[str, ...]:
    """Load the rule versions of a spec folder outside the package (`<provider>/<version>.yaml`,
    as spec/ holds them) and make them available like the built-in ones: `get_rules("acme")`,
    `compile_tool(..., target="acme")` where the runtime follows. The YAML is expanded in process by
    the generator's own code (toolcast._spec): the catalogue and the versions it extends, of any
    provider (`extends: openai@2026-10-17`), are resolved and checked as tools/gen_tables.py does.
    Loading the same folder again replaces its versions; a provider of the built-in tables cannot be
    replaced. Returns the providers (rule families) the folder holds."""
    from toolcast._spec.load import SpecError
    from toolcast._spec.runtime import load

    _from_env()
    try:
        from pathlib import Path  # (not on `import toolcast`: it imports urllib.parse)

        index, modules = load(Path(path))
    except SpecError as exc:
        raise SpecFolderError(str(exc)) from None
    clash = sorted(p for p in index.VERSIONS if p in _tables.VERSIONS)
    if clash:
        raise SpecFolderError(f"{path}: provider {clash[0]!r} is built in; a spec folder adds providers "
                              "(extend it instead: `extends: " + clash[0] + "@VERSION`)")
    global PROVIDERS
    for provider in index.VERSIONS:  # (a folder loaded again: its old versions go)
        for key in [k for k in _LOADED if k[0] == provider]:
            del _LOADED[key]
    VERSIONS.update(index.VERSIONS)
    DEFAULTS.update(index.DEFAULTS)
    FAMILIES.update(index.FAMILIES)
    WIRES.update(index.WIRES)
    _LOADED.update(modules)
    PROVIDERS = tuple(sorted(VERSIONS))
    _GENERATION[0] += 1  # (the targets are built again: a provider loaded again may change its shapes)
    _load.cache_clear()
    _RESOLVED.clear()
    return tuple(sorted(index.VERSIONS))


def take_spec_options(argv: list[str]) -> list[str]:
    """The command line without its leading `--spec DIR` options (before the command: `toolcast
    --spec DIR compile ...`), each folder loaded (load_spec_dir) on the way."""
    rest = list(argv)
    while rest and (rest[0] == "--spec" or rest[0].startswith("--spec=")):
        if rest[0] == "--spec":
            if len(rest) < 2:
                raise SpecFolderError("--spec needs a folder (DIR holding <provider>/<version>.yaml files)")
            folder, rest = rest[1], rest[2:]
        else:
            folder, rest = rest[0].partition("=")[2], rest[1:]
        load_spec_dir(folder)
    return rest


def _from_env() -> None:
    """Load the folders TOOLCAST_SPEC_PATH names (os.pathsep-separated), once."""
    if _FROM_ENV:
        return
    _FROM_ENV.append(True)
    by: dict[str, str] = {}  # provider -> the folder that defined it
    for entry in os.environ.get("TOOLCAST_SPEC_PATH", "").split(os.pathsep):
        if entry.strip():
            try:
                loaded = load_spec_dir(entry.strip())
                again = [p for p in loaded if p in by]
                if again:  # (the later folder would replace the earlier's versions without a word)
                    raise SpecFolderError(f"{entry.strip()}: provider {again[0]!r} is defined by {by[again[0]]} "
                                          "too; give each provider one folder")
                by.update(dict.fromkeys(loaded, entry.strip()))
            except SpecFolderError as exc:  # (read on import by what lists targets: raised by get_rules)
                _ENV_ERROR.append(SpecFolderError(f"TOOLCAST_SPEC_PATH: {exc}"))
                return


def env_error() -> SpecFolderError | None:
    """Why a folder TOOLCAST_SPEC_PATH names was not loaded (the folders after it neither), or None."""
    _from_env()
    return _ENV_ERROR[0] if _ENV_ERROR else None


def family(target: str, api: str | None) -> str | None:
    """The rule family compiled for `api` of `target` when one names them (gemini-parameters)."""
    _from_env()
    return FAMILIES.get((target, api))


def target_of(family_name: str) -> tuple[str, str] | None:
    """(target, api) a rule family names (gemini-parameters: gemini, parameters), or None."""
    _from_env()
    return next((key for key, fam in FAMILIES.items() if fam == family_name), None)


def available(provider: str = "openai") -> tuple[str, ...]:
    _from_env()
    return VERSIONS.get(provider, ())


def default_version(provider: str = "openai") -> str:
    _from_env()
    return DEFAULTS[provider]


def wire_of(family_name: str) -> tuple | None:
    """(target, api or None, wire section) of a rule family's default version, from the index (no
    rule table is loaded); None for a family that states no wire: section."""
    _from_env()
    return WIRES.get(family_name)


def generation() -> int:
    """How many spec folders were loaded: what the targets are built from changes with it."""
    _from_env()
    return _GENERATION[0]


def providers() -> tuple[str, ...]:
    """Every provider (rule family) known, built in or loaded."""
    _from_env()
    return PROVIDERS


def parse_spec(spec: str | None, provider: str = "openai") -> tuple[str, str]:
    """(provider, version) for `None`, `latest`, `VERSION` or `provider@VERSION`."""
    _from_env()
    if spec is None or spec == "":
        return provider, default_version(provider)
    text = spec.strip()
    if "@" in text:
        provider, _, text = text.partition("@")
    elif text in VERSIONS:  # a provider's name alone: its default version
        provider, text = text, "default"
    if provider not in VERSIONS:
        raise UnknownRulesError(f"unknown provider {provider!r}; available: {', '.join(PROVIDERS)}")
    versions = VERSIONS[provider]
    if text == "latest":
        return provider, versions[-1]
    if text == "default":
        return provider, default_version(provider)
    if text not in versions:
        listing = ", ".join(f"{provider}@{v}" for v in versions)
        raise UnknownRulesError(f"unknown rule version {spec!r}; available: {listing} (or 'latest')")
    return provider, text


@cache
def _load(provider: str, version: str) -> Rules:
    module = _LOADED.get((provider, version))
    if module is None:
        module = importlib.import_module(f"toolcast._tables.{_tables.module_name(provider, version)}")
    return Rules(module)


_RESOLVED: dict[tuple, Rules] = {}


def get_rules(spec: str | Rules | None = None, provider: str = "openai") -> Rules:
    """The Rules for a version spec (cached); a Rules instance passes through."""
    if type(spec) is Rules:
        return spec
    if not _FROM_ENV:  # (TOOLCAST_SPEC_PATH read before the first rules are: an error in it said at once)
        _from_env()
    if _ENV_ERROR:
        raise _ENV_ERROR[0]
    r = _RESOLVED.get((spec, provider))
    if r is None:
        if isinstance(spec, Rules):
            return spec
        r = _load(*parse_spec(spec, provider))
        if len(_RESOLVED) < 64:  # specs are a handful of strings; never grow without bound
            _RESOLVED[(spec, provider)] = r
    return r
