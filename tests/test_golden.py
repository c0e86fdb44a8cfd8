"""Golden behaviour per topic and rule version: (code, path) pairs, outcomes, null paths and output."""

from __future__ import annotations

import pytest
from golden_support import GOLDEN, TOPICS, actual, load_file, write_file
from jsonschema import Draft202012Validator
from oracles.openai_strict import tool_violations

from toolcast.rules import available, default_version, get_rules

VERSIONS = available("openai")


def _cases():
    for version in VERSIONS:
        for topic in TOPICS:
            path = GOLDEN / "openai" / version / f"{topic}.json"
            if not path.exists():
                continue
            for i, case in enumerate(load_file(path)["cases"]):
                yield pytest.param(version, topic, i, id=f"{version}-{topic}-{i}-{case['description'][:40]}")


@pytest.fixture(scope="session", autouse=True)
def _seed_missing_versions(update_goldens: bool) -> None:
    """With --update-goldens, give every version the default version's inputs where it has none."""
    if not update_goldens:
        return
    default = default_version("openai")
    for version in VERSIONS:
        for topic in TOPICS:
            src = GOLDEN / "openai" / default / f"{topic}.json"
            dst = GOLDEN / "openai" / version / f"{topic}.json"
            if src.exists() and not dst.exists():
                data = load_file(src)
                for case in data["cases"]:
                    case.pop("expect", None)
                write_file(dst, data)


@pytest.mark.parametrize("version,topic,index", list(_cases()))
def test_golden(version: str, topic: str, index: int, update_goldens: bool) -> None:
    path = GOLDEN / "openai" / version / f"{topic}.json"
    data = load_file(path)
    case = data["cases"][index]
    got = actual(case, version)
    if update_goldens:
        case["expect"] = got
        write_file(path, data)
        return
    assert "expect" in case, f"{path}: case {index} has no expectation; run pytest --update-goldens and review"
    expect = case["expect"]
    results = got if isinstance(got, list) else [got]
    expects = expect if isinstance(expect, list) else [expect]
    for g, e in zip(results, expects, strict=True):
        assert g["status"] == e["status"], case["description"]
        assert g["null_paths"] == e["null_paths"], case["description"]
        assert g["diagnostics"] == e["diagnostics"], case["description"]
        assert g["transformations"] == e["transformations"], case["description"]
        if "tool" in e:
            assert g["tool"] == e["tool"], case["description"]
    # Every tool sent strict must pass the independent acceptability check.
    for g in results:
        tool = g.get("tool")
        if tool is not None and g["status"] == "strict":
            api = case.get("options", {}).get("api", "responses")
            assert tool_violations(tool, api, profile=_oracle_profile(version)) == [], case["description"]
            params = tool["parameters"] if "parameters" in tool else tool["function"]["parameters"]
            Draft202012Validator.check_schema(params)


def _oracle_profile(version: str) -> str:
    # The oracle knows the two readings of the keyword list; older versions are stricter
    # still, so the 2026-08-20 profile is the closest independent check for them.
    return "2026-10-17" if version >= "2026-10-17" else "2026-08-20"


def test_no_orphaned_goldens() -> None:
    """Every golden file belongs to a known version and topic; every case is described once."""
    for provider_dir in GOLDEN.iterdir():
        assert provider_dir.name == "openai", f"unknown provider folder {provider_dir}"
        for version_dir in provider_dir.iterdir():
            assert version_dir.name in VERSIONS, f"{version_dir} is not a rule version"
            for f in version_dir.iterdir():
                assert f.suffix == ".json" and f.stem in TOPICS, f"orphaned golden file {f}"
                cases = load_file(f)["cases"]
                assert cases, f"{f} has no cases"
                descriptions = [c["description"] for c in cases]
                assert len(set(descriptions)) == len(descriptions), f"{f}: duplicate descriptions"
    for topic in TOPICS:
        assert (GOLDEN / "openai" / default_version("openai") / f"{topic}.json").exists(), topic


def test_goldens_cover_every_code() -> None:
    """Each active diagnostic and transformation code appears in some golden expectation."""
    seen: set[str] = set()
    active: set[str] = set()
    for version in VERSIONS:
        r = get_rules(f"openai@{version}")
        active |= {c for c, d in r.diagnostics.items() if d[5] == "active"}
        active |= {c for c, t in r.transformations.items() if t[2] == "active"}
        for topic in TOPICS:
            path = GOLDEN / "openai" / version / f"{topic}.json"
            if not path.exists():
                continue
            for case in load_file(path)["cases"]:
                expects = case.get("expect", [])
                for e in expects if isinstance(expects, list) else [expects]:
                    seen |= {d[0] for d in e["diagnostics"]} | {t[0] for t in e["transformations"]}
    # Only Python input can hold a value JSON cannot carry (a golden file is JSON): see
    # tests/test_fuzz_compile.py for openai/non-json-value.
    missing = sorted(active - seen - {"openai/non-json-value"})
    assert not missing, f"codes without a golden case: {missing}"
