"""Refresh tests/corpus from local checkouts of its sources (offline) and print what changed.

Usage:
    python tools/refresh_corpus.py --jsts ~/src/JSON-Schema-Test-Suite
    python tools/refresh_corpus.py --schemastore DIR --compose-spec DIR --openapi DIR --mcp-spec DIR
    python tools/refresh_corpus.py --gorilla DIR --vscode-copilot-chat DIR   bfcl.jsonl, agent_tools.jsonl
    python tools/refresh_corpus.py --converted DIR     mcp.jsonl, converted elsewhere (five sources)
    ... --dry-run                                      print the changes, write nothing
    ... --dest DIR                                     refresh another copy (default: tests/corpus)

Each option names a checkout of one source (tests/corpus/SOURCES.md says which repository and
which of its files). Every file is read and checked before anything is written, so a missing
file leaves the corpus as it was. Each file is reported as added, changed, removed or
unchanged; for the *.jsonl sets, the tools added, removed and changed are listed by name.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_convert import BFCL_CATEGORIES, CONVERTERS, RefreshError  # noqa: F401 (BFCL_CATEGORIES: for tests)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DEST = ROOT / "tests" / "corpus"
SCHEMASTORE = ("package", "tsconfig", "github-workflow", "github-action", "renovate-43", "claude-code-settings",
               "kustomization")


@dataclass(frozen=True)
class Pick:
    """Files of one source: `upstream` (a file, or a folder taken whole with `tree`) -> `target`."""

    upstream: str
    target: str
    folder: bool = False  # `upstream` is a folder that `convert` reads as a whole
    tree: bool = False  # the folder's files, recursively (targets no longer upstream are removed)
    glob: str = ""  # the folder's files matching this pattern, not recursively
    convert: str = ""  # a key of CONVERTERS: how the upstream file becomes the target


SOURCES: dict[str, tuple[str, tuple[Pick, ...]]] = {
    "jsts": ("a JSON-Schema-Test-Suite checkout", (
        Pick("tests/draft2020-12", "jsts", glob="*.json"),
        Pick("remotes/draft2020-12", "jsts/remotes/draft2020-12", tree=True),
    )),
    "schemastore": ("a SchemaStore/schemastore checkout", tuple(
        Pick(f"src/schemas/json/{name}.json", f"large/schemastore-{name}.json") for name in SCHEMASTORE)),
    "compose-spec": ("a compose-spec/compose-spec checkout", (Pick("schema/compose-spec.json", "large/compose-spec.json"),)),
    "openapi": ("an OAI/OpenAPI-Specification checkout (branch v3.1-dev)", (
        Pick("src/schemas/validation/schema.yaml", "large/openapi-3.1-schema.json", convert="yaml-json"),)),
    "mcp-spec": ("a modelcontextprotocol/modelcontextprotocol checkout", (
        Pick("schema/2025-11-25/schema.json", "large/mcp-schema-2025-11-25.json"),)),
    "gorilla": ("a ShishirPatil/gorilla checkout (BFCL function docs)", (
        Pick("berkeley-function-call-leaderboard/bfcl_eval/data", "bfcl.jsonl", folder=True, convert="bfcl"),)),
    "vscode-copilot-chat": ("a microsoft/vscode-copilot-chat checkout", (
        Pick("package.json", "agent_tools.jsonl", convert="vscode-tools"),)),
    "converted": ("a folder holding a freshly converted mcp.jsonl (see SOURCES.md §2)", (
        Pick("mcp.jsonl", "mcp.jsonl"),)),
}


def _convert(path: Path, how: str) -> bytes:
    return CONVERTERS[how](path) if how else path.read_bytes()


def planned(name: str, checkout: Path, dest: Path) -> tuple[dict[Path, bytes], set[Path]]:
    """({target file: new bytes}, {target files this source owns now}) for one source."""
    if not checkout.is_dir():
        raise RefreshError(f"--{name} {checkout}: not a directory")
    new: dict[Path, bytes] = {}
    owned: set[Path] = set()
    for pick in SOURCES[name][1]:
        src, target = checkout / pick.upstream, dest / pick.target
        if pick.tree or pick.glob:
            if not src.is_dir():
                raise RefreshError(f"--{name} {checkout}: no folder {pick.upstream}")
            found = sorted(src.rglob("*") if pick.tree else src.glob(pick.glob))
            files = [f for f in found if f.is_file()]
            if not files:
                raise RefreshError(f"--{name} {checkout}: no files in {pick.upstream}")
            for f in files:
                new[target / f.relative_to(src)] = _convert(f, pick.convert)
            if target.is_dir():
                old = target.rglob("*") if pick.tree else target.glob(pick.glob)
                owned |= {f for f in old if f.is_file()}
        else:
            if not (src.is_dir() if pick.folder else src.is_file()):
                raise RefreshError(f"--{name} {checkout}: no {'folder' if pick.folder else 'file'} {pick.upstream}")
            new[target] = _convert(src, pick.convert)
            owned.add(target)
    return new, owned


def _tools(data: bytes) -> Counter:
    """Each tool line of a *.jsonl set, keyed by (name, line) so that equal names stay apart."""
    out: Counter = Counter()
    for line in data.decode("utf-8").splitlines():
        if line.strip():
            out[(str(json.loads(line).get("name")), line)] += 1
    return out


def tool_changes(old: bytes, new: bytes) -> list[str]:
    """'+ name' / '- name' / '~ name' (a tool whose definition changed) for two versions of a set."""
    a, b = _tools(old), _tools(new)
    gone, came = a - b, b - a
    gone_names, came_names = Counter(n for n, _ in gone.elements()), Counter(n for n, _ in came.elements())
    changed = gone_names & came_names
    lines = [f"  ~ {n}" for n in sorted(changed.elements())]
    lines += [f"  - {n}" for n in sorted((gone_names - changed).elements())]
    lines += [f"  + {n}" for n in sorted((came_names - changed).elements())]
    return lines


def commit_of(checkout: Path) -> str:
    """The checkout's HEAD commit, or why there is none (git runs locally; nothing is fetched)."""
    try:
        proc = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--show-toplevel", "HEAD"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)"
    lines = proc.stdout.split()
    # A folder inside some other repository is not a checkout of the source: its HEAD would mislead.
    if proc.returncode != 0 or len(lines) != 2 or Path(lines[0]).resolve() != checkout.resolve():
        return "unknown (not a git checkout)"
    return lines[1]


def _write(path: Path, data: bytes) -> None:
    """Replace `path` whole or not at all (a temporary file beside it, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def changes_of(new: dict[Path, bytes], owned: set[Path], dest: Path) -> list[tuple[Path, str, list[str]]]:
    """(target, added/changed/removed/unchanged, tools changed) for every file one source owns."""
    out = []
    for target in sorted(set(new) | owned):
        old = target.read_bytes() if target.is_file() else None
        if target not in new:
            out.append((target, "removed", []))
        elif old is None:
            out.append((target, "added", []))
        elif old == new[target]:
            out.append((target, "unchanged", []))
        else:
            out.append((target, "changed", tool_changes(old, new[target]) if target.suffix == ".jsonl" else []))
    return out


def refresh(checkouts: dict[str, Path], dest: Path, *, dry_run: bool = False, out=None) -> int:
    """Refresh `dest` from the given checkouts; print the changes. Returns the number of changed files.

    Everything is read, converted and compared first: a bad checkout raises before any write."""
    out = out if out is not None else sys.stdout
    plans = {}
    for name, path in checkouts.items():
        new, owned = planned(name, path, dest)
        plans[name] = (new, changes_of(new, owned, dest))
    changed = 0
    for name, (new, report) in plans.items():
        print(f"{name}: {checkouts[name]} @ {commit_of(checkouts[name])}", file=out)
        for target, state, detail in report:
            print(f"  {state:9} {target.relative_to(dest).as_posix()}", file=out)
            for line in detail:
                print(f"  {line}", file=out)
            if state == "unchanged":
                continue
            changed += 1
            if dry_run:
                continue
            if state == "removed":
                target.unlink()
            else:
                _write(target, new[target])
    verb = "would change" if dry_run else "changed"
    print(f"{verb} {changed} file(s) under {dest}" + ("; update the commits in SOURCES.md" if changed else ""), file=out)
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, (what, _picks) in SOURCES.items():
        ap.add_argument(f"--{name}", type=Path, metavar="DIR", help=f"{what}")
    ap.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="the corpus folder to refresh (default: tests/corpus)")
    ap.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    args = ap.parse_args(argv)
    checkouts = {name: getattr(args, name.replace("-", "_")) for name in SOURCES}
    checkouts = {name: path for name, path in checkouts.items() if path is not None}
    if not checkouts:
        ap.error("name at least one checkout (" + ", ".join(f"--{n}" for n in SOURCES) + ")")
    try:
        refresh(checkouts, args.dest, dry_run=args.dry_run)
    except (RefreshError, UnicodeDecodeError, ValueError) as exc:  # raised before any write
        print(f"refresh_corpus: {exc}; nothing was written", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"refresh_corpus: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
