#!/usr/bin/env bash
# Create benchmarks/.peers-venv: the peer converters (pinned, from PyPI) plus this repo
# installed with --no-deps, kept apart from the test environment.
# Usage: bash benchmarks/setup_peers.sh [PYTHON]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
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
  "matplotlib>=3.8"
"$venv/bin/python" -m pip install -q --no-deps -e "$repo"
"$venv/bin/python" - <<'PY'
import importlib.metadata as md
for p in ("openai", "openai-agents", "pydantic-ai-slim", "langchain-core", "matplotlib", "toolcast"):
    print(f"{p}=={md.version(p)}")
PY
