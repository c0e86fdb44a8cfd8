"""What a spec asks of the interpreter is something it does (moved to toolcast._spec.honoured, so
that a spec folder loaded at run time is checked the same way; this name stays for the tools)."""

from __future__ import annotations

import speclib  # noqa: F401  (puts the source tree on sys.path)

from toolcast._spec.honoured import check_honoured  # noqa: F401
