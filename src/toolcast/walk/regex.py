"""Pattern verdicts: the regex features a `pattern` uses and what the rules do about them, cached per rule version."""

from __future__ import annotations

from toolcast.rules import Rules


def _pattern_verdict(r: Rules, pattern: str) -> tuple:
    """("invalid", reason, column) or ("ok", ((feature, (action, diagnostic, transformation)), ...)).

    Parsed as ECMA-262 with the `u` flag (what JSON Schema recommends), falling back to the
    non-unicode grammar (which also accepts identity escapes such as `\\-` that many real
    patterns use). lark loads only here, on the first pattern, never on import.
    """
    cache = r.__dict__.get("_pattern_verdicts")
    if cache is None:
        cache = r.__dict__["_pattern_verdicts"] = {}
    verdict = cache.get(pattern)
    if verdict is None:
        from toolcast._regex import RegexSyntaxError, analyze

        try:
            try:
                used = analyze(pattern, unicode=True)
            except RegexSyntaxError as first:
                try:
                    used = analyze(pattern, unicode=False)
                except RegexSyntaxError:
                    raise first from None
        except RegexSyntaxError as exc:
            verdict = ("invalid", exc.message, exc.position + 1)
        else:
            table = getattr(r.module, "REGEX_FEATURES", {})
            classes = getattr(r.module, "REGEX_FEATURE_CLASSES", {})
            found = sorted(f for f in used if f in table)
            verdict = ("ok", tuple((f, classes[table[f][0]]) for f in found))
        if len(cache) >= 4096:  # bounded: a long-running process may see endless distinct patterns
            cache.clear()
        cache[pattern] = verdict
    return verdict


def _pattern_written(r: Rules, pattern: str) -> str | None:
    """The pattern leaves._pattern writes for this one (it records why where it differs), or None
    where it drops it: policy pattern_match `whole-string` pads an unanchored one. Remembered per
    rule version beside its verdict: a planned copy asks for every pattern it copies."""
    kept_cache = r.__dict__.get("_patterns_written")
    if kept_cache is None:
        kept_cache = r.__dict__["_patterns_written"] = {}
    written = kept_cache.get(pattern, kept_cache)
    if written is kept_cache:
        verdict = _pattern_verdict(r, pattern)
        if verdict[0] == "invalid" or any(action == "drop" for _f, (action, _d, _t) in verdict[1]):
            written = None
        else:
            written = whole_string(pattern) if r.policy.get("pattern_match") == "whole-string" else pattern
        if len(kept_cache) >= 4096:  # bounded as the verdicts are
            kept_cache.clear()
        kept_cache[pattern] = written
    return written

_ANY = ".*"  # (any characters, for a reader whose `.` matches every character: policy pattern_match)


def whole_string(pattern: str) -> str:
    """`pattern` (valid ECMA-262) written so that a reader matching it against the whole string, with
    a `.` that matches every character (policy pattern_match `whole-string`), accepts exactly the
    strings in which ECMA-262 finds a match: each side that a `^`/`$` of every top-level alternative
    does not anchor gets `.*`, a top-level alternation grouped first, `(?:...)`, so that the `.*`
    applies to each alternative. The same string where both sides are anchored. Exact: `.*P.*`
    matches the whole string where P matches some part of it, and an anchor elsewhere in P still
    asserts the string's start or end (no `m` flag), which a `.*` beside it then matches empty."""
    spans, ends = _top_level(pattern)
    start = all(pattern.startswith("^", b) for b, _ in spans)
    end = all(e - 1 in ends for _, e in spans)
    if start and end:
        return pattern
    if not pattern:
        return _ANY
    body = f"(?:{pattern})" if len(spans) > 1 else pattern
    return ("" if start else _ANY) + body + ("" if end else _ANY)


def _top_level(pattern: str) -> tuple[list, set]:
    """The (start, end) spans of `pattern`'s top-level alternatives, and where a `$` assertion stands
    at the top level: read outside groups, classes (`[...]`, where a `]` first still closes it, as
    ECMA-262 reads `[]`) and escapes (`\\$` is a character)."""
    spans, ends, depth, begin, i, n = [], set(), 0, 0, 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0 and c == "|":
            spans.append((begin, i))
            begin = i + 1
        elif depth == 0 and c == "$":
            ends.add(i)
        i += 1
    spans.append((begin, n))
    return spans, ends
