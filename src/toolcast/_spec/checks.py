"""The cross-references of a resolved rule version that the meta-schema cannot express."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from toolcast._spec.honoured import check_honoured
from toolcast._spec.resolve import MESSAGE_FIELDS, REQUIRED_SECTIONS, Version
from toolcast._spec.yamldoc import SpecError


def observation_problem(spec_dir: Path, source: dict) -> str | None:
    """Why an observation source (evidence O) does not stand, or None: its record must be a file
    under spec/observations that `toolcast probe --record` wrote, holding a verdict of the source's
    model on the source's date."""
    base = (spec_dir / "observations").resolve()
    path = (spec_dir / source["record"]).resolve()
    if base not in path.parents:
        return f"record {source['record']!r} is not a file under the spec's observations/ directory"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"record {source['record']!r} cannot be read as JSON: {getattr(exc, 'strerror', None) or exc}"
    if not isinstance(doc, dict) or doc.get("toolcast_probe_record") != 1 or not isinstance(doc.get("verdicts"), list):
        return f"record {source['record']!r} is not a toolcast probe record (toolcast probe --record FILE writes one)"
    for v in doc["verdicts"]:
        if isinstance(v, dict) and source["model"] in (v.get("model"), v.get("response_model")) and v.get("date") == source["date"]:
            return None
    return f"record {source['record']!r} holds no verdict of model {source['model']!r} observed on {source['date']}"


def check_semantics(v: Version, r: dict) -> None:
    """Cross-references the meta-schema cannot express; errors point at the child file."""
    doc = v.doc

    def fail(path: tuple, message: str) -> SpecError:
        return doc.error(path, message)

    for section in REQUIRED_SECTIONS:
        if section not in r:
            raise fail((), f"missing section {section!r} (and no version it extends provides it)")
    sources = r["sources"]
    for sid, src in sources.items():  # an observation cites a probe record kept beside the spec
        problem = observation_problem(doc.file.parent.parent, src) if src and src.get("evidence") == "O" else None
        if problem:
            raise fail(("sources", sid, "record"), problem)
    diagnostics = r["diagnostics"]
    transformations = r["transformations"]

    def check_cites(path: tuple, cites: list) -> None:
        for i, cid in enumerate(cites):
            if cid not in sources:
                raise fail(path + (i,), f"citation {cid!r} is not in sources")

    for code, entry in diagnostics.items():
        for req in ("severity", "outcome", "message", "docs", "cite"):
            if req not in entry:
                raise fail(("diagnostics", code), f"diagnostic {code!r} lacks {req!r}")
        # A rule family for one API of a target (gemini-parameters) reports under the target's codes.
        prefix = r["target"]["name"] if "target" in r else r["provider"]
        if not code.startswith(prefix + "/"):
            raise fail(("diagnostics", code), f"code {code!r} must start with {prefix + '/'!r}")
        check_cites(("diagnostics", code, "cite"), entry["cite"])
        if not entry["docs"].startswith("https://"):
            raise fail(("diagnostics", code, "docs"), f"docs link {entry['docs']!r} is no https:// URL (a term it "
                       "names is missing from `terms`?)")
        _check_message(("diagnostics", code, "message"), entry["message"], fail)
    for code, entry in transformations.items():
        for req in ("lossy", "detail"):
            if req not in entry:
                raise fail(("transformations", code), f"transformation {code!r} lacks {req!r}")
    classes = r["keyword_classes"]
    for cname, c in classes.items():
        if c["action"] == "drop":
            if c.get("diagnostic") not in diagnostics:
                raise fail(("keyword_classes", cname, "diagnostic"), f"unknown diagnostic code {c.get('diagnostic')!r}")
            if c.get("transformation") not in transformations:
                raise fail(("keyword_classes", cname, "transformation"), f"unknown transformation code {c.get('transformation')!r}")
    if "unknown" not in classes:
        raise fail(("keyword_classes",), "class 'unknown' must be defined (it handles unlisted keywords)")
    for kw, entry in r["keywords"].items():
        if entry["class"] not in classes:
            raise fail(("keywords", kw, "class"), f"class {entry['class']!r} is not in keyword_classes")
        if entry["class"] == "rewrite" and "handler" not in entry:
            raise fail(("keywords", kw), "a rewrite keyword needs a handler")
        check_cites(("keywords", kw, "cite"), entry["cite"])
    for fmt, cites in r["formats"].items():
        check_cites(("formats", fmt), cites)
    for lname, limit in r["limits"].items():
        if "code" not in limit:
            raise fail(("limits", lname), f"limit {lname!r} names no diagnostic `code` (and no version it extends does)")
        if limit["code"] not in diagnostics:
            raise fail(("limits", lname, "code"), f"unknown diagnostic code {limit['code']!r}")
        check_cites(("limits", lname, "cite"), limit["cite"])
    _check_regex(r, fail, check_cites)
    _check_text_rules(r, fail)
    check_honoured(r, fail, check_cites, doc.lines)
    check_cites(("name", "cite"), r["name"].get("cite", []))
    check_cites(("description", "cite"), r["description"].get("cite", []))
    for slot in r["slots"]:
        if slot not in r["keywords"]:
            raise fail(("slots", slot), f"slot {slot!r} is not a keyword")
    order = r["output_order"]
    for kw, entry in r["keywords"].items():
        if entry["class"] == "supported" and kw not in order:
            raise fail(("keywords", kw), f"supported keyword {kw!r} is missing from output_order")
    for kw in order:
        if kw not in r["keywords"]:
            raise fail(("output_order",), f"output_order names {kw!r}, which is not a keyword")


def _check_message(path: tuple, message: str, fail) -> None:
    """A message template names parameters only: `{name}` or `{name!r}` (quoted), filled in by the
    interpreter's str.format_map; never a position, an attribute or index of one, another
    conversion or a format spec, which would print Python objects or fail as the finding is read
    (a parameter may be a number or a text)."""
    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(message) if f is not None]
    except ValueError as exc:
        raise fail(path, f"bad message template: {exc}") from None
    for name, spec, conv in fields:
        if not name.isidentifier():
            raise fail(path, f"placeholder {{{name}}} must be a parameter's plain name (no position, attribute "
                       f"or index); allowed: {sorted(MESSAGE_FIELDS)}")
        if spec or conv not in (None, "r", "s"):
            raise fail(path, f"placeholder {{{name}}} takes no format spec or conversion but !r and !s "
                       f"(not {'!' + conv if conv else ''}{':' + spec if spec else ''}): a parameter may be a "
                       "number or a text")
        if name not in MESSAGE_FIELDS:
            raise fail(path, f"unknown placeholder {{{name}}}; allowed: {sorted(MESSAGE_FIELDS)}")


def _check_text_rules(r: dict, fail) -> None:
    """The tool-name pattern compiles, and each range of description characters to strip is one
    (start before end), so the character class built from them (toolcast.rules) compiles."""
    try:
        re.compile(r["name"]["pattern"])
    except re.error as exc:
        raise fail(("name", "pattern"), f"not a regular expression: {exc}") from None
    for i, (lo, hi) in enumerate(r["description"]["strip_ranges"]):
        if lo > hi:
            raise fail(("description", "strip_ranges", i), f"range [{lo:#x}, {hi:#x}] is empty: it starts after "
                       "it ends (write the lower code point first)")


def _check_regex(r: dict, fail, check_cites) -> None:
    """Regex feature classes name real codes; features are the analyzer's names and classed."""
    from toolcast._regex import FEATURES  # the analyzer's public vocabulary (lark loads lazily)

    diagnostics, transformations = r["diagnostics"], r["transformations"]
    classes = r["regex_feature_classes"]
    for cname, c in classes.items():
        path = ("regex_feature_classes", cname)
        if c["diagnostic"] not in diagnostics:
            raise fail(path + ("diagnostic",), f"unknown diagnostic code {c['diagnostic']!r}")
        t = c.get("transformation")
        if c["action"] == "drop":
            if t not in transformations:
                raise fail(path + ("transformation",), f"a dropping class needs a known transformation, not {t!r}")
            if not transformations[t]["lossy"]:
                raise fail(path + ("transformation",), f"dropping a pattern is lossy, but {t!r} is not marked lossy")
        elif t is not None:
            raise fail(path + ("transformation",), "a class that keeps the pattern records no transformation")
    for feature, entry in r["regex_features"].items():
        path = ("regex_features", feature)
        if feature not in FEATURES:
            raise fail(path, f"unknown regex feature {feature!r}; known: {', '.join(sorted(FEATURES))}")
        if entry["class"] not in classes:
            raise fail(path + ("class",), f"class {entry['class']!r} is not in regex_feature_classes")
        check_cites(path + ("cite",), entry["cite"])
