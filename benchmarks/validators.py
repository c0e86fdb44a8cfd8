"""The validator for enforce=True, chosen by measurement: jsonschema and jsonschema-rs on the
JSON-Schema-Test-Suite (every draft toolcast reads) and on the cost of checking one call's arguments.

Usage: python benchmarks/validators.py [SUITE]
SUITE is a checkout of json-schema-org/JSON-Schema-Test-Suite (its tests/ and remotes/); without it,
the 2020-12 cases vendored in tests/corpus/jsts. Needs jsonschema (the `probe` extra, or the test group).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

DRAFTS = ("draft4", "draft6", "draft7", "draft2019-09", "draft2020-12")
REMOTE = "http://localhost:1234/"


def _files(suite: Path | None) -> dict[str, tuple[list[Path], Path]]:
    if suite is None:
        jsts = common.CORPUS / "jsts"
        return {"draft2020-12": (sorted(jsts.glob("*.json")), jsts / "remotes")}
    return {d: (sorted((suite / "tests" / d).glob("*.json")), suite / "remotes") for d in DRAFTS}


def _remote(remotes: Path, uri: str):
    if not uri.startswith(REMOTE):
        raise ValueError(f"no network: {uri}")
    path = remotes / uri[len(REMOTE):]
    if not path.is_file():
        raise ValueError(f"no such remote: {uri}")
    return json.loads(path.read_text(encoding="utf-8"))


def _jsonschema(draft: str, remotes: Path):
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import specification_with

    cls = {"draft4": jsonschema.Draft4Validator, "draft6": jsonschema.Draft6Validator,
           "draft7": jsonschema.Draft7Validator, "draft2019-09": jsonschema.Draft201909Validator,
           "draft2020-12": jsonschema.Draft202012Validator}[draft]
    spec = specification_with(cls.META_SCHEMA["$schema"])

    def retrieve(uri: str):
        return Resource.from_contents(_remote(remotes, uri), default_specification=spec)

    return lambda schema: cls(schema, registry=Registry(retrieve=retrieve)).is_valid


def _rs(draft: str, remotes: Path):
    import jsonschema_rs

    cls = {"draft4": jsonschema_rs.Draft4Validator, "draft6": jsonschema_rs.Draft6Validator,
           "draft7": jsonschema_rs.Draft7Validator, "draft2019-09": jsonschema_rs.Draft201909Validator,
           "draft2020-12": jsonschema_rs.Draft202012Validator}[draft]
    return lambda schema: cls(schema, retriever=lambda uri: _remote(remotes, uri), validate_formats=False).is_valid


def compliance(suite: Path | None) -> None:
    print("draft         cases   jsonschema pass   jsonschema-rs pass   jsonschema s   jsonschema-rs s")
    for draft, (files, remotes) in _files(suite).items():
        cases = [(g["schema"], t["data"], t["valid"]) for f in files
                 for g in json.loads(f.read_text(encoding="utf-8")) for t in g["tests"]]
        row = [draft, len(cases)]
        times = []
        for make in (_jsonschema(draft, remotes), _rs(draft, remotes)):
            passed = 0
            t0 = time.perf_counter()
            for schema, data, valid in cases:
                with contextlib.suppress(Exception):  # a schema the library cannot build counts as a failure
                    passed += make(schema)(data) == valid
            times.append(time.perf_counter() - t0)
            row.append(passed)
        print(f"{row[0]:<13} {row[1]:<7} {row[2]:<17} {row[3]:<20} {times[0]:<14.2f} {times[1]:.2f}")


def speed() -> None:
    import jsonschema
    import jsonschema_rs
    from enforce import SCHEMA, _args

    print("arguments   bytes     json.loads µs   jsonschema µs   jsonschema-rs µs")
    a = jsonschema.Draft202012Validator(SCHEMA)
    b = jsonschema_rs.validator_for(SCHEMA)
    for label, n in (("small", 1), ("large", 2000)):
        value = _args(n)
        text = json.dumps(value)
        k = 2000 if n == 1 else 10
        cells = []
        for fn in (lambda t=text: json.loads(t), lambda v=value: a.is_valid(v), lambda v=value: b.is_valid(v)):
            runs = []
            for _ in range(5):
                t0 = time.perf_counter_ns()
                for _ in range(k):
                    fn()
                runs.append((time.perf_counter_ns() - t0) / k / 1000)
            cells.append(common.median(runs))
        print(f"{label:<11} {len(text):<9} {cells[0]:<15.2f} {cells[1]:<15.2f} {cells[2]:.2f}")


if __name__ == "__main__":
    compliance(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
    speed()
