"""A probe record as spec evidence: the observation kind of source (evidence O), checked by the generator."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402
from spec_versions import LATEST, NEXT  # noqa: E402

from toolcast import probe  # noqa: E402
from toolcast.cli import probe as probe_cli  # noqa: E402


@pytest.fixture
def spec(tmp_path) -> Path:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    return d


def record(spec: Path, name: str = "openai/2026-12-06-gpt-x.json", model: str = "gpt-x",
           observed: str = "2026-12-06T10:00:00Z") -> str:
    v = probe.Verdict("tools.json", "refund_order", "openai", "responses", f"openai@{LATEST}", model, "rejected",
                      message="Invalid schema for function 'refund_order'", http_status=400, observed=observed,
                      request={"method": "POST", "url": "https://api.openai.com/v1/responses", "body": {"model": model}})
    path = spec / "observations" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    probe_cli.write_record(path, [v])
    return "observations/" + name


def cite(spec: Path, rec: str, model: str = "gpt-x", date: str = "2026-12-06") -> None:
    (spec / "openai" / f"{NEXT}.yaml").write_text(
        f'provider: openai\nversion: "{NEXT}"\nreviewed: "{NEXT}"\nextends: "{LATEST}"\nsummary: test\n'
        f"sources:\n  X-PROBE: {{title: 'toolcast probe: root anyOf rejected', date: '{date}', evidence: O, "
        f"model: {model}, record: '{rec}'}}\n"
        "keywords:\n  minLength: {class: supported, value: count, cite: [O-SO, X-PROBE]}\n", encoding="utf-8")


def test_an_observation_cites_its_record_and_reaches_the_tables(spec):
    cite(spec, record(spec))
    _, files = gen_tables.build(spec)
    module = next(text for name, text in files.items() if NEXT.replace("-", "_") in name)
    assert ("'X-PROBE': SourceEntry('toolcast probe: root anyOf rejected', 'spec/observations/openai/2026-12-06-gpt-x.json', "
            "'2026-12-06', 'O', 'gpt-x', 'observations/openai/2026-12-06-gpt-x.json')") in module


@pytest.mark.parametrize("change, words", [
    ({"model": "gpt-y"}, "no verdict of model 'gpt-y' observed on 2026-12-06"),
    ({"date": "2026-12-07"}, "observed on 2026-12-07"),
    ({"rec": "observations/openai/missing.json"}, "cannot be read"),
    ({"rec": "observations/../openai/2024-08-06.yaml.json"}, "not a file under"),
])
def test_an_observation_that_does_not_stand_is_refused(spec, change, words):
    rec = record(spec)
    cite(spec, change.get("rec", rec), change.get("model", "gpt-x"), change.get("date", "2026-12-06"))
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(spec)
    assert words in str(info.value) and str(info.value.file).endswith(f"{NEXT}.yaml")


def test_a_file_that_is_not_a_probe_record_is_refused(spec):
    (spec / "observations").mkdir()
    (spec / "observations" / "notes.json").write_text(json.dumps({"verdicts": []}))
    cite(spec, "observations/notes.json")
    with pytest.raises(speclib.SpecError, match="not a toolcast probe record"):
        gen_tables.build(spec)


def test_an_observation_needs_model_and_record(spec):
    (spec / "openai" / f"{NEXT}.yaml").write_text(
        f'provider: openai\nversion: "{NEXT}"\nreviewed: "{NEXT}"\nextends: "{LATEST}"\nsummary: test\n'
        "sources:\n  X-PROBE: {title: t, date: '2026-12-06', evidence: O}\n", encoding="utf-8")
    with pytest.raises(speclib.SpecError):
        gen_tables.build(spec)
