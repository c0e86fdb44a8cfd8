#!/usr/bin/env bash
# Create benchmarks/.peers-venv: the peer converters (pinned, from PyPI), matplotlib for the plot and
# lark (toolcast's one dependency: run.py times its own toolcast build in this venv's process too,
# imported from where run.py found it), kept apart from the test environment.
# Usage: bash benchmarks/setup_peers.sh [PYTHON]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${1:-${PYTHON:-python3}}"
venv="$here/.peers-venv"
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q \
  "openai==3.57.0" \
  "openai-agents==0.24.0" \
  "pydantic-ai-slim==2.68.0" \
  "langchain-core==1.8.3" \
  "matplotlib>=3.8" \
  "lark>=1.1"
# (earlier versions of this script installed the repo here; run.py now passes its own build)
"$venv/bin/python" -m pip uninstall -q -y toolcast >/dev/null 2>&1 || true
"$venv/bin/python" - <<'PY'
import importlib.metadata as md
for p in ("openai", "openai-agents", "pydantic-ai-slim", "langchain-core", "matplotlib", "lark"):
    print(f"{p}=={md.version(p)}")
PY
