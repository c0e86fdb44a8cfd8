"""Golden behaviour per topic and rule version: (code, path) pairs, outcomes, null paths and output."""

from __future__ import annotations

import pytest
from golden_premises import failures as premise_failures
from golden_support import (
    GOLDEN,
    TOPICS,
    actual,
    load_file,
    parent,
    record,
    rename_codes,
    resolved,
    target,
)
from jsonschema import Draft202012Validator
from oracles import anthropic as anthropic_oracle
from oracles import gemini as gemini_oracle
from oracles import sent as sent_oracle
from oracles.openai_strict import tool_violations
from sdk_checks import sdk_round_trip

from toolcast.providers import EMITTERS
from toolcast.rules import PROVIDERS, available, default_version, get_rules

# Rule families with goldens (tests/golden/<family>/<version>/<topic>.json, PROVIDERS: every
# provider and API family the tables hold; tests/golden/README.md): each topic is stored in full
# where a family starts, and every version that extends another stores only what it changes.


def _cases():
    for provider in PROVIDERS:
        for version in available(provider):
            for topic in TOPICS:
                prefix = "" if provider == "openai" else f"{provider}-"
                for i, description in enumerate(resolved(provider, version, topic)):
                    yield pytest.param(provider, version, topic, description,
                                       id=f"{prefix}{version}-{topic}-{i}-{description[:40]}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ == "test_golden":
        metafunc.parametrize("provider,version,topic,description", list(_cases()))


def _premise_message(provider: str, version: str, topic: str, case, failed: dict) -> str:
    facts = "; ".join(f"{fact!r} (here: {now!r})" for fact, now in failed.items())
    where = GOLDEN / provider / version / f"{topic}.json"
    return (f"{provider}@{version} {topic}: the case {case.description!r} assumes {facts}, which this "
            f"version no longer has, so its expectation would contradict its description. In {where}, "
            "give the case another input or a new premise and description, retire it, or list the facts "
            "under premise_not_held to keep the recorded behaviour (tests/golden/README.md).")


def test_golden(provider: str, version: str, topic: str, description: str, update_goldens: bool) -> None:
    case = resolved(provider, version, topic)[description]
    got = actual(case.data, version, provider)
    failed = {f: now for f, now in premise_failures(case.premise, get_rules(f"{provider}@{version}")).items()
              if f not in case.not_held}
    if update_goldens:
        up = parent(provider, version)
        inherited = None
        if case.defined_at != (provider, version):
            above = resolved(*up, topic)[description]
            inherited = rename_codes(actual(above.data, up[1], up[0]), target(*up), target(provider, version))
        record(provider, version, topic, case, got, inherited)
        assert not failed, _premise_message(provider, version, topic, case, failed)
        return
    assert not failed, _premise_message(provider, version, topic, case, failed)
    assert case.expect is not None, f"{provider}@{version} {topic}: {description!r} has no expectation; run pytest --update-goldens and review"
    expect = case.expect
    results = got if isinstance(got, list) else [got]
    expects = expect if isinstance(expect, list) else [expect]
    for g, e in zip(results, expects, strict=True):
        assert g["status"] == e["status"], description
        assert g["null_paths"] == e["null_paths"], description
        assert g["diagnostics"] == e["diagnostics"], description
        assert g["transformations"] == e["transformations"], description
        if "tool" in e:
            assert g["tool"] == e["tool"], description
    # Every tool sent strict must pass the independent acceptability check.
    if provider != "openai":
        _check_with_oracle(get_rules(f"{provider}@{version}").target, version, results, description)
        return
    for g in results:
        tool = g.get("tool")
        api = case.data.get("options", {}).get("api", "responses")
        if tool is not None and g["status"] == "strict":
            # The documented facts of this version (tests/oracles/facts.py), not its generated tables.
            assert tool_violations(tool, api, profile=version) == [], description
            params = tool["parameters"] if "parameters" in tool else tool["function"]["parameters"]
            Draft202012Validator.check_schema(params)
        elif tool is not None:  # sent without strict: what OpenAI takes in that form (provider-facts §9)
            assert sent_oracle.openai_violations(tool, api, version) == [], description


def _check_with_oracle(provider: str, version: str, results: list, description: str) -> None:
    """A provider's own oracle (tests/oracles/<provider>.py) on every tool of the case, and the
    request's budgets over those sent, each under the facts of `version` (tests/oracles/facts.py)."""
    sent = [g["tool"] for g in results if g.get("tool") is not None]
    if provider not in ("anthropic", "gemini", "vertex"):
        from oracles import more  # the providers added in issue 40 (tests/oracles/more.py)

        assert provider in more.TARGETS, f"no independent oracle for target {provider!r}: add one to tests/oracles/"
        for g in results:
            if g.get("tool") is not None:
                assert more.violations(g["tool"], provider, g["status"], version) == [], description
        return
    for tool in sent:
        if "parameters" in tool and provider in ("gemini", "vertex"):
            # Sent strict or not, a `parameters` declaration carries the converted Schema: the
            # oracle and the SDK's typed FunctionDeclaration must take every one.
            assert gemini_oracle.declaration_violations(tool, provider, version) == [], description
            assert sdk_round_trip(tool) == tool, description
    for g in results:
        if g.get("tool") is not None and g["status"] == "strict" and "parameters" not in g["tool"]:
            if provider == "anthropic":
                assert anthropic_oracle.tool_violations(g["tool"], version) == [], description
            else:
                assert gemini_oracle.declaration_violations(g["tool"], provider, version) == [], description
            Draft202012Validator.check_schema(EMITTERS[provider].schema_of(g["tool"]))
        elif g.get("tool") is not None:  # non-strict, or a `parameters` declaration: provider-facts §8, §9
            api = "parameters" if "parameters" in g["tool"] else "json-schema"
            assert sent_oracle.sent_violations(g["tool"], provider, api, g["status"], version) == [], description
    if provider == "anthropic" and "tool" in (results[0] if results else {}):
        assert anthropic_oracle.request_violations(sent, version) == [], description


def test_no_orphaned_goldens() -> None:
    """Every golden file belongs to a known version and topic, names each case once, and changes only
    cases the versions it extends have; a family's first version holds every case in full."""
    for provider_dir in GOLDEN.iterdir():
        if provider_dir.name == "README.md":
            continue
        assert provider_dir.name in PROVIDERS, f"unknown provider folder {provider_dir}"
        for version_dir in provider_dir.iterdir():
            assert version_dir.name in available(provider_dir.name), f"{version_dir} is not a rule version"
            for f in version_dir.iterdir():
                assert f.suffix == ".json" and f.stem in TOPICS, f"orphaned golden file {f}"
                cases = load_file(f)["cases"]
                assert cases, f"{f} has no cases"
                descriptions = [c["description"] for c in cases]
                assert len(set(descriptions)) == len(descriptions), f"{f}: duplicate descriptions"
                resolved(provider_dir.name, version_dir.name, f.stem)  # raises on a change to no case
    for topic in TOPICS:
        assert resolved("openai", default_version("openai"), topic), topic


def _expectations(provider: str, version: str):
    for topic in TOPICS:
        for case in resolved(provider, version, topic).values():
            expects = case.expect or []
            yield from expects if isinstance(expects, list) else [expects]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_goldens_cover_every_code(provider: str) -> None:
    """Each active diagnostic and transformation code appears in some golden expectation."""
    seen: set[str] = set()
    active: set[str] = set()
    only_from_python: set[str] = set()
    for version in available(provider):
        r = get_rules(f"{provider}@{version}")
        only_from_python |= {c for c, d in r.diagnostics.items() if d.pattern in ("non-json-value", "too-many-schema-nodes")}
        active |= {c for c, d in r.diagnostics.items() if d[5] == "active"}
        active |= {c for c, t in r.transformations.items() if t[2] == "active"}
        if any(b.counts == "strict-tools" and b.value == 0 for b in r.budgets.values()):
            only_from_python.add("enabled-strict-mode")  # a family that never sends strict (mistral, bedrock)
        for e in _expectations(provider, version):
            seen |= {d[0] for d in e["diagnostics"]} | {t[0] for t in e["transformations"]}
    # Only Python input can hold a value JSON cannot carry (a golden file is JSON): see
    # tests/test_fuzz_compile.py for the non-json-value pattern. Nor can JSON text share a subtree:
    # tests/test_node_budget.py for too-many-schema-nodes.
    missing = sorted(active - seen - only_from_python)
    assert not missing, f"codes without a golden case: {missing}"
