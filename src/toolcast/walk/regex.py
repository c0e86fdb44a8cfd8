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


def _pattern_kept(r: Rules, pattern: str) -> bool:
    """Whether leaves._pattern keeps this pattern (it records why when it does not). Remembered per
    rule version beside its verdict: a planned copy asks for every pattern it copies."""
    kept_cache = r.__dict__.get("_patterns_kept")
    if kept_cache is None:
        kept_cache = r.__dict__["_patterns_kept"] = {}
    kept = kept_cache.get(pattern)
    if kept is None:
        verdict = _pattern_verdict(r, pattern)
        kept = verdict[0] != "invalid" and all(action != "drop" for _f, (action, _d, _t) in verdict[1])
        if len(kept_cache) >= 4096:  # bounded as the verdicts are
            kept_cache.clear()
        kept_cache[pattern] = kept
    return kept
