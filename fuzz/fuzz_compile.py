"""atheris harness: arbitrary bytes -> JSON/YAML loader -> compile_tool under every rule version.

Run on demand (see fuzz/README.md); never part of CI. A crash is any exception other than
the documented ones (InvalidToolError from compile_tool, the loader's own input errors).
"""

from __future__ import annotations

import json
import sys
import zlib

from _instrument import atheris, instrument_toolcast

instrument_toolcast()

import toolcast  # noqa: E402  (instrumented above)
from toolcast import loader  # noqa: E402
from toolcast.rules import available  # noqa: E402

RULES = [f"openai@{v}" for v in available("openai")]
SUFFIXES = [".json", ".jsonl", ".yaml", ""]


def TestOneInput(data: bytes) -> None:
    # The options come from a hash of the input, not from its bytes: every byte stays part of
    # the document, so the seed files in fuzz/corpus are read as the tools they are.
    h = zlib.crc32(data)
    suffix = SUFFIXES[h % 4]
    rules = RULES[(h >> 2) % len(RULES)]
    strict = ("auto", True, False)[(h >> 8) % 3]
    api = ("responses", "chat")[(h >> 12) % 2]
    raw = data
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
