"""The rule facts a golden case depends on (its `premise`), checked against the rules it runs under.

A premise is a list of short sentences, each one fact of the rule version that the case's description
takes for granted ("an unsupported format is dropped as lossy" takes `format uri unsupported`). Where a
version no longer has that fact, the case fails with a message that says so, instead of recording a
behaviour its description contradicts. The vocabulary (tests/golden/README.md lists it):

    keyword <name> <class>            the keyword's class (supported, rewrite, tier1, tier2, annotation,
                                      default, unknown), or `unlisted`
    format <name> supported|unsupported   `format` is kept and the name is in the version's list
    regex <feature> unsupported|unconfirmed|allowed   the regex feature's class (allowed: not listed)
    limit <name> <value>|none         a walk limit (spec `limits`), or none stated
    budget <name> <value>|none        a request budget (spec `budgets`)
    policy <rule> <value>|none        a structural rule (spec `policy`)
    description max_chars <value>|none    the provider's cap on a tool description (characters)
    description max_bytes <value>     toolcast's own cap (UTF-8 bytes)
    name max_length <value>           the tool-name length the name rule allows
"""

from __future__ import annotations

from toolcast.rules import Rules


def _keyword(r: Rules, name: str) -> str:
    entry = r.keywords.get(name)
    return entry.cls if entry is not None else "unlisted"


def _format(r: Rules, name: str) -> str:
    entry = r.keywords.get("format")
    kept = entry is not None and entry.action == "keep" and entry.handler == "format"
    return "supported" if kept and name in r.formats else "unsupported"


def _regex(r: Rules, name: str) -> str:
    entry = getattr(r.module, "REGEX_FEATURES", {}).get(name)
    return entry.cls if entry is not None else "allowed"


def _limit(r: Rules, name: str) -> str:
    entry = r.limits.get(name)
    return "none" if entry is None else str(entry.value)


def _budget(r: Rules, name: str) -> str:
    entry = r.budgets.get(name)
    return "none" if entry is None else str(entry.value)


def _policy(r: Rules, name: str) -> str:
    return str(r.policy.get(name, "none"))


def _description(r: Rules, name: str) -> str:
    if name == "max_bytes":
        return str(r.description_max_bytes)
    if name != "max_chars":
        raise ValueError(f"premise: unknown description fact {name!r} (max_chars, max_bytes)")
    return "none" if r.description_max_chars is None else str(r.description_max_chars)


def _name(r: Rules, name: str) -> str:
    if name != "max_length":
        raise ValueError(f"premise: unknown name fact {name!r} (max_length)")
    return str(r.name_max_length)


KINDS = {"keyword": _keyword, "format": _format, "regex": _regex, "limit": _limit, "budget": _budget,
         "policy": _policy, "description": _description, "name": _name}


def value_of(r: Rules, kind: str, name: str) -> str:
    """What version `r` says for one fact (the third word of a premise)."""
    try:
        return KINDS[kind](r, name)
    except KeyError:
        raise ValueError(f"premise: unknown kind {kind!r}; known: {', '.join(KINDS)}") from None


def parse(fact: str) -> tuple[str, str, str]:
    words = fact.split()
    if len(words) != 3:
        raise ValueError(f"premise {fact!r}: want three words, <kind> <name> <value>")
    return words[0], words[1], words[2]


def failures(premise: list[str], r: Rules) -> dict[str, str]:
    """{fact: what `r` says instead} for every fact of `premise` that version `r` does not have."""
    out = {}
    for fact in premise:
        kind, name, want = parse(fact)
        got = value_of(r, kind, name)
        if got != want:
            out[fact] = f"{kind} {name} {got}"
    return out
