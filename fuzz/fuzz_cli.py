"""atheris harness: arbitrary bytes on stdin of `toolcast compile - --format json` (in process).

A crash is an exception out of cli.main, an exit code outside 0/1/2, or "internal error"
on stderr. Run on demand (see fuzz/README.md).
"""

from __future__ import annotations

import io
import json
import sys

from _instrument import atheris, instrument_toolcast

instrument_toolcast()

from toolcast import cli  # noqa: E402  (instrumented above)


def TestOneInput(data: bytes) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(
        ["compile", "-", "--format", "json"], stdout=out, stderr=err, stdin=io.BytesIO(data)
    )
    if (
        code not in (0, 1, 2)
        or "internal error" in err.getvalue()
        or "internal error" in out.getvalue()
    ):
        raise RuntimeError(f"exit {code}: {err.getvalue()[-500:]} {out.getvalue()[-2000:]}")
    json.loads(out.getvalue())


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
