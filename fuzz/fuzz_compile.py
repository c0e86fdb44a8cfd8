"""atheris harness: arbitrary bytes -> JSON/YAML loader -> compile_tool under every rule version.

Run on demand (see fuzz/README.md); never part of CI. A crash is any exception other than
the documented ones (InvalidToolError from compile_tool, the loader's own input errors).
"""

from __future__ import annotations

import json
import sys

import atheris

with atheris.instrument_imports():
    import toolcast
    from toolcast import loader
    from toolcast.rules import available

RULES = [f"openai@{v}" for v in available("openai")]


def TestOneInput(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    suffix = fdp.PickValueInList([".json", ".jsonl", ".yaml", ""])
    rules = fdp.PickValueInList(RULES)
    strict = fdp.PickValueInList(["auto", True, False])
    api = fdp.PickValueInList(["responses", "chat"])
    raw = fdp.ConsumeBytes(fdp.remaining_bytes())
    try:
        text = loader.decode(raw, "fuzz")
        parsed = loader.parse(text, "fuzz", suffix)
    except loader._ParseError:
        return
    items, _errors = loader.tools_of(parsed, "fuzz")
    for item in items:
        try:
            res = toolcast.compile_tool(item.tool, rules=rules, strict=strict, api=api)
        except toolcast.InvalidToolError:
            continue
        json.dumps(res.to_dict(), allow_nan=False)
        if res.status == "strict":
            args = toolcast.fill_nulls({}, res.null_paths)
            toolcast.strip_nulls(args, res.null_paths)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
