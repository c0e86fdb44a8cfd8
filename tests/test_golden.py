"""Golden behaviour per topic and rule version: (code, path) pairs, outcomes, null paths and output."""

from __future__ import annotations

import pytest
from golden_support import GOLDEN, TOPICS, actual, load_file, write_file
from jsonschema import Draft202012Validator
from oracles import anthropic as anthropic_oracle
from oracles import gemini as gemini_oracle
from oracles import sent as sent_oracle
from oracles.openai_strict import tool_violations
from sdk_checks import sdk_round_trip

from toolcast.providers import EMITTERS
from toolcast.rules import PROVIDERS, available, default_version, get_rules

VERSIONS = available("openai")
# Rule families with goldens (tests/golden/<provider>/<version>/<topic>.json, PROVIDERS: every
# provider and API family the tables hold); OpenAI's ids keep their old form.


def _cases():
    for provider in PROVIDERS:
        for version in available(provider):
            for topic in TOPICS:
                path = GOLDEN / provider / version / f"{topic}.json"
                if not path.exists():
                    continue
                prefix = "" if provider == "openai" else f"{provider}-"
                for i, case in enumerate(load_file(path)["cases"]):
                    yield pytest.param(provider, version, topic, i,
                                       id=f"{prefix}{version}-{topic}-{i}-{case['description'][:40]}")


def _seed_missing_versions() -> None:
    """With --update-goldens, give every version the default version's inputs where it has none (a
    new default takes them from the newest older version that has them)."""
    default = default_version("openai")
    for version in VERSIONS:
        older = [v for v in VERSIONS if v < version][::-1]
        for topic in TOPICS:
            dst = GOLDEN / "openai" / version / f"{topic}.json"
            found = [GOLDEN / "openai" / v / f"{topic}.json" for v in [default, *older]]
            src = next((f for f in found if f.exists() and f != dst), None)
            if src is not None and not dst.exists():
                data = load_file(src)
                for case in data["cases"]:
                    case.pop("expect", None)
                write_file(dst, data)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Seeded before the cases are listed, so one --update-goldens run records the new files too.
    if metafunc.function.__name__ == "test_golden":
        if metafunc.config.getoption("--update-goldens"):
            _seed_missing_versions()
        metafunc.parametrize("provider,version,topic,index", list(_cases()))


def test_golden(provider: str, version: str, topic: str, index: int, update_goldens: bool) -> None:
    path = GOLDEN / provider / version / f"{topic}.json"
    data = load_file(path)
    case = data["cases"][index]
    got = actual(case, version, provider)
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
    if provider != "openai":
        _check_with_oracle(get_rules(f"{provider}@{version}").target, results, case["description"])
        return
    for g in results:
        tool = g.get("tool")
        api = case.get("options", {}).get("api", "responses")
        if tool is not None and g["status"] == "strict":
            assert tool_violations(tool, api, profile=_oracle_profile(version)) == [], case["description"]
            params = tool["parameters"] if "parameters" in tool else tool["function"]["parameters"]
            Draft202012Validator.check_schema(params)
        elif tool is not None:  # sent without strict: what OpenAI takes in that form (provider-facts §9)
            assert sent_oracle.openai_violations(tool, api) == [], case["description"]


def _check_with_oracle(provider: str, results: list, description: str) -> None:
    """A provider's own oracle (tests/oracles/<provider>.py) on every tool of the case, and the
    request's budgets over those sent."""
    sent = [g["tool"] for g in results if g.get("tool") is not None]
    for tool in sent:
        if "parameters" in tool and provider in ("gemini", "vertex"):
            # Sent strict or not, a `parameters` declaration carries the converted Schema: the
            # oracle and the SDK's typed FunctionDeclaration must take every one.
            assert gemini_oracle.declaration_violations(tool, provider) == [], description
            assert sdk_round_trip(tool) == tool, description
    for g in results:
        if g.get("tool") is not None and g["status"] == "strict" and "parameters" not in g["tool"]:
            if provider == "anthropic":
                assert anthropic_oracle.tool_violations(g["tool"]) == [], description
            else:
                assert gemini_oracle.declaration_violations(g["tool"], provider) == [], description
            Draft202012Validator.check_schema(EMITTERS[provider].schema_of(g["tool"]))
        elif g.get("tool") is not None:  # non-strict, or a `parameters` declaration: provider-facts §8, §9
            api = "parameters" if "parameters" in g["tool"] else "json-schema"
            assert sent_oracle.sent_violations(g["tool"], provider, api, g["status"]) == [], description
    if provider == "anthropic" and "tool" in (results[0] if results else {}):
        assert anthropic_oracle.request_violations(sent) == [], description


def _oracle_profile(version: str) -> str:
    # The oracle knows the two readings of the keyword list; older versions are stricter
    # still, so the 2026-08-20 profile is the closest independent check for them.
    return "2026-10-17" if version >= "2026-10-17" else "2026-08-20"


def test_no_orphaned_goldens() -> None:
    """Every golden file belongs to a known version and topic; every case is described once."""
    for provider_dir in GOLDEN.iterdir():
        assert provider_dir.name in PROVIDERS, f"unknown provider folder {provider_dir}"
        for version_dir in provider_dir.iterdir():
            assert version_dir.name in available(provider_dir.name), f"{version_dir} is not a rule version"
            for f in version_dir.iterdir():
                assert f.suffix == ".json" and f.stem in TOPICS, f"orphaned golden file {f}"
                cases = load_file(f)["cases"]
                assert cases, f"{f} has no cases"
                descriptions = [c["description"] for c in cases]
                assert len(set(descriptions)) == len(descriptions), f"{f}: duplicate descriptions"
    for topic in TOPICS:
        assert (GOLDEN / "openai" / default_version("openai") / f"{topic}.json").exists(), topic


@pytest.mark.parametrize("provider", PROVIDERS)
def test_goldens_cover_every_code(provider: str) -> None:
    """Each active diagnostic and transformation code appears in some golden expectation."""
    seen: set[str] = set()
    active: set[str] = set()
    only_from_python: set[str] = set()
    for version in available(provider):
        r = get_rules(f"{provider}@{version}")
        only_from_python |= {c for c, d in r.diagnostics.items() if d.pattern == "non-json-value"}
        active |= {c for c, d in r.diagnostics.items() if d[5] == "active"}
        active |= {c for c, t in r.transformations.items() if t[2] == "active"}
        for topic in TOPICS:
            path = GOLDEN / provider / version / f"{topic}.json"
            if not path.exists():
                continue
            for case in load_file(path)["cases"]:
                expects = case.get("expect", [])
                for e in expects if isinstance(expects, list) else [expects]:
                    seen |= {d[0] for d in e["diagnostics"]} | {t[0] for t in e["transformations"]}
    # Only Python input can hold a value JSON cannot carry (a golden file is JSON): see
    # tests/test_fuzz_compile.py for the non-json-value pattern.
    missing = sorted(active - seen - only_from_python)
    assert not missing, f"codes without a golden case: {missing}"
