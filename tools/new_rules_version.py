"""Scaffold a new rule version that extends the latest one: valid at once, changes added by hand.

Usage:
    python tools/new_rules_version.py openai 2026-12-01             spec/openai/2026-12-01.yaml
    python tools/new_rules_version.py openai 2026-12-01 --default   ... and make it the default
    python tools/new_rules_version.py openai 2026-12-01 --spec DIR  work on a copy of spec/
    python tools/new_rules_version.py acme 2026-12-01 --extends openai@2026-10-17
                                                                    a new provider that starts
                                                                    from another's rules

Then edit the file (every change with a citation), run `python tools/gen_tables.py` and
`toolcast rules diff openai@PREVIOUS openai@NEW --impact tests/corpus/*.jsonl` (see spec/README.md).
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import speclib

TEMPLATE = """\
# {provider} rules as read on {version}.
# States only what changed from {parent}; the generator resolves the rest (`null` removes an
# inherited entry). Every change cites a source: add new ones under `sources` and say in a
# comment when a date is not pinned. See spec/README.md for the workflow.
provider: {provider}
version: "{version}"
reviewed: "{reviewed}"
extends: "{parent}"{default}
summary: >-
  Same rules as {parent}; replace this line with what changed and why.

# sources:
#   NEW-ID:
#     title: "What it is and what it shows"
#     url: "https://..."
#     date: "YYYY-MM-DD"      # or YYYY-MM / YYYY when the day is not known
#     evidence: D             # D docs, P API spec, S SDK, M maintainer, E user error, T third party
#   (an observation of your own: {{title, date, evidence: O, model, record: observations/FILE.json}},
#    the record written by `toolcast probe --record`; see docs/probe.md)
#
# keywords:                   # a keyword moves class: restate its whole entry (`handler:` too)
#   minProperties: {{class: supported, value: count, cite: [NEW-ID]}}
#
# formats:
#   uri: [NEW-ID]             # add a format; `uri: null` removes one
#
# limits:                     # change a limit: restate value, code and cite
#   max_properties: {{value: 10000, code: openai/too-many-properties, cite: [NEW-ID]}}
#
# regex_features:             # unsupported drops the pattern (lossy); unconfirmed keeps it
#   backreference: {{class: unsupported, cite: [NEW-ID]}}
#
# diagnostics:                # change a message, severity or outcome (fields merge)
#   openai/unknown-keyword: {{message: "...", cite: [NEW-ID]}}
"""

NEW_PROVIDER = """\
# {provider}: a provider whose rules are {parent}'s with the differences below (spec/README.md, "A
# provider that extends another"). Its codes are {provider}/...; the messages name it by
# terms.provider_name; a code it does not restate links to terms.docs and cites catalogue_cite.
# State each difference its documents give, with a citation; where they are silent, say in a
# comment that {parent}'s rule is assumed.
provider: {provider}
version: "{version}"
reviewed: "{reviewed}"
extends: {parent}
default: true
summary: >-
  REPLACE: what this provider's tool-schema rules are, and how they differ from {parent}.

terms:
  provider_name: "REPLACE (the provider's name as its documents write it)"
  docs: "https://REPLACE.invalid/the-provider-tool-calling-docs"
catalogue_cite: [{source}]

sources:
  {source}:
    title: "REPLACE: the provider's tool-calling documentation"
    url: "https://REPLACE.invalid/the-provider-tool-calling-docs"
    date: "{version}"
    evidence: D

# limits:                     # a limit that differs: value and cite (the code is inherited, renamed)
#   max_properties: {{value: 64, cite: [{source}]}}
# keywords:                   # a keyword the provider does not take
#   pattern: {{class: tier1, value: string, cite: [{source}]}}
"""


def scaffold_provider(spec_dir: Path, provider: str, version: str, parent: str, reviewed: str | None) -> Path:
    """Write spec_dir/provider/version.yaml for a new provider extending another's `parent`
    (`openai@2026-10-17`); validate it."""
    other, _, other_version = parent.partition("@")
    found = speclib.discover(spec_dir)
    if provider in found:
        raise SystemExit(f"new_rules_version: {provider!r} exists; extend one of its versions, or name a new provider")
    if other_version not in found.get(other, {}):
        raise SystemExit(f"new_rules_version: cannot extend unknown {parent}")
    target = spec_dir / provider / f"{version}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    source = re.sub(r"[^A-Z0-9]+", "-", provider.upper()).strip("-") + "-TOOLS"
    target.write_text(NEW_PROVIDER.format(provider=provider, version=version, reviewed=reviewed or version,
                                          parent=parent, source=source), encoding="utf-8")
    try:
        again = speclib.discover(spec_dir)
        for v in again[provider]:
            speclib.resolve(again[provider], v)
    except BaseException:
        target.unlink(missing_ok=True)
        if not any(target.parent.iterdir()):
            target.parent.rmdir()
        raise
    return target


def scaffold(spec_dir: Path, provider: str, version: str, *, reviewed: str | None = None,
             parent: str | None = None, make_default: bool = False) -> tuple[Path, str]:
    """Write spec_dir/provider/version.yaml extending `parent` (default: the latest); validate it."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", version):
        raise SystemExit(f"new_rules_version: version must be a date YYYY-MM-DD, not {version!r}")
    try:
        datetime.date.fromisoformat(version)
    except ValueError:
        raise SystemExit(f"new_rules_version: {version!r} is not a real date") from None
    if parent is not None and "@" in parent:  # a new provider, starting from another's rules
        return scaffold_provider(spec_dir, provider, version, parent, reviewed), parent
    found = speclib.discover(spec_dir)
    if provider not in found:
        raise SystemExit(f"new_rules_version: no provider {provider!r} under {spec_dir}; known: {', '.join(sorted(found))}")
    versions = found[provider]
    if version in versions:
        raise SystemExit(f"new_rules_version: {provider}@{version} already exists")
    parent = parent or max(versions)
    if parent not in versions:
        raise SystemExit(f"new_rules_version: cannot extend unknown {provider}@{parent}; known: {', '.join(sorted(versions))}")
    if parent >= version:
        raise SystemExit(f"new_rules_version: {version} must be newer than the version it extends ({parent})")
    target = spec_dir / provider / f"{version}.yaml"
    old_default = [v for v, ver in versions.items() if ver.doc.data.get("default")]
    target.write_text(
        TEMPLATE.format(provider=provider, version=version, reviewed=reviewed or version, parent=parent,
                        default="\ndefault: true" if make_default else ""),
        encoding="utf-8",
    )
    edited: list[tuple[Path, str]] = []
    try:
        if make_default:
            for v in old_default:
                f = versions[v].doc.file
                text = f.read_text(encoding="utf-8")
                edited.append((f, text))
                new_text, n = re.subn(r"(?m)^default: true[ \t]*\n", "", text)
                if n != 1:
                    raise SystemExit(f"new_rules_version: cannot find `default: true` on its own line in {f}")
                f.write_text(new_text, encoding="utf-8")
        # Valid at once: the new file passes the same checks as the generator's.
        again = speclib.discover(spec_dir)
        for v in again[provider]:
            speclib.resolve(again[provider], v)
    except BaseException:
        target.unlink(missing_ok=True)
        for f, text in edited:
            f.write_text(text, encoding="utf-8")
        raise
    return target, parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("provider")
    ap.add_argument("version", help="the new version's date, YYYY-MM-DD")
    ap.add_argument("--spec", type=Path, default=speclib.SPEC_DIR, help="the spec folder (default: spec/)")
    ap.add_argument("--extends", dest="parent", default=None, help="the version to extend (default: the latest); "
                    "PROVIDER@VERSION starts a new provider from another's rules")
    ap.add_argument("--reviewed", default=None, help="review date (default: the version date)")
    ap.add_argument("--default", action="store_true", help="make the new version the default")
    args = ap.parse_args(argv)
    try:
        path, parent = scaffold(args.spec, args.provider, args.version, reviewed=args.reviewed, parent=args.parent,
                        make_default=args.default)
    except speclib.SpecError as exc:
        print(f"new_rules_version: the spec does not validate: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    old = parent if "@" in parent else f"{args.provider}@{parent}"
    print("next: edit it (cite every change), then `python tools/gen_tables.py` and "
          f"`toolcast rules diff {old} {args.provider}@{args.version} --impact PATH...`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
