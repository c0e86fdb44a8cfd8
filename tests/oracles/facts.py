"""What the providers' documents say, per reading: the ONE mapping from rule version to documented facts.

The independent oracles (``openai_strict.py``) take their keyword allowlist, string formats and limits
from here. Every reading is written from the team's provider fact sheet ("PF", cited by section; its
public sources are cited by URL in ``spec/``) and from rejection messages users reported, never from
``spec/*.yaml`` or ``toolcast._tables``: where the compiler's rule data and this file disagree, a test
fails, and one of the two readings of the docs is wrong.

A reading is named by the date of the rule version it belongs to and states only what the documents
changed since the reading before it. A rule version with no reading of its own has the facts of the
newest reading dated on or before it, so a version that changes nothing the oracles check needs no
entry here. A version that does change one (a format, a keyword, a limit) adds a reading with the
same date (spec/README.md, the maintainer workflow, step 6).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

# PF §1.6 string `format`: the nine formats of the guide; "'uri' is not a valid format" (peers §4).
NINE_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})

# PF §1.4-§1.7: what strict mode keeps, whatever the reading: structure, enum/anyOf/$ref/$defs, the
# description annotation.
_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
                        "$ref", "$defs", "description"})
# PF §6 "≈2025-05-20": Structured Outputs adds pattern, format, numeric bounds and minItems/maxItems.
_WIDENING = frozenset({"pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum",
                       "exclusiveMaximum", "minItems", "maxItems"})
# PF §1.6 C-1 and §6 2026-07-13 (openai-node docs): minLength/maxLength unsupported only by fine-tuned
# models; const (PF §1.5, unlisted-accepted) and title (PF §1.6, S O-JAVA allowlist).
_BASE_MODEL_EXTRAS = frozenset({"minLength", "maxLength", "const", "title"})


@dataclass(frozen=True)
class Reading:
    """The facts one reading of OpenAI's strict-mode documents gives."""

    date: str
    allowlist: frozenset  # keywords a compiled strict schema may carry
    formats: frozenset  # `format` values strict mode accepts
    limits: dict  # PF §1.8, the counters of openai_strict.LIMITS


# Each entry: what changed from the reading before it (the first states everything).
OPENAI_CHANGES: dict[str, dict] = {
    # Strict mode launches (PF §1.8 "Launch docs (2024-08)" column: community t/918388, t/974416). No
    # pattern, format, bounds or lengths yet (PF §6 ≈2025-05-20 row names what came later).
    "2024-08-06": {
        "allowlist": _STRUCTURE,
        "formats": frozenset(),
        "limits": {"properties": 100, "depth": 5, "string_chars": 15_000, "enum_values": 500,
                   "big_enum_threshold": 250, "big_enum_chars": 7_500},
    },
    # The widening (PF §6 ≈2025-05-20; PF §1.6): the nine keywords and the nine formats.
    "2025-05-20": {"allowlist+": _WIDENING, "formats": NINE_FORMATS},
    # The guide's current limits (PF §1.8 "Current docs (O-SO, 2025-11 → 2026-09)"; the day of the
    # raise is not pinned, the oldest copy that shows them is headed 2025-11-30).
    "2025-11-30": {"limits": {"properties": 5_000, "depth": 10, "string_chars": 120_000, "enum_values": 1_000,
                              "big_enum_threshold": 250, "big_enum_chars": 15_000}},
    # Lookaround rejected (a regex fact the oracles do not check) and the 1,024-character description
    # cap no longer documented: nothing here changes for the schema oracle.
    # Base models accept minLength, maxLength, const and title (PF §1.6 C-1; §6 2026-07-13).
    "2026-10-17": {"allowlist+": _BASE_MODEL_EXTRAS},
}


def _readings(changes: dict[str, dict]) -> dict[str, Reading]:
    out: dict[str, Reading] = {}
    last: Reading | None = None
    for date in sorted(changes):
        change = changes[date]
        if last is None:
            last = Reading(date, change["allowlist"], change["formats"], change["limits"])
        else:
            last = replace(
                last,
                date=date,
                allowlist=(change.get("allowlist", last.allowlist) | change.get("allowlist+", frozenset()))
                - change.get("allowlist-", frozenset()),
                formats=(change.get("formats", last.formats) | change.get("formats+", frozenset()))
                - change.get("formats-", frozenset()),
                limits={**last.limits, **change.get("limits", {})},
            )
        out[date] = last
    return out


OPENAI: dict[str, Reading] = _readings(OPENAI_CHANGES)


def openai(version: str) -> Reading:
    """The facts for OpenAI rule version `version` (a date): its reading, or the newest before it."""
    earlier = [d for d in OPENAI if d <= version]
    if not earlier:
        raise ValueError(f"no documented OpenAI reading on or before {version!r}; known: {sorted(OPENAI)}")
    return OPENAI[max(earlier)]
