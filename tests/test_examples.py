"""Every Python example runs: the scripts in examples/ as they are, and the Python blocks of the README
and of each page of docs/, in order in one namespace per document (as a reader pastes them), offline: the names a block leaves to the reader
(`client`, sessions, tool lists) are local stubs, and the openai-agents block runs the real SDK
against a loopback stub of the Responses API and the real `toolcast proxy`."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
SCRIPTS = sorted((ROOT / "examples").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_every_example_script_runs(script):
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and done.stdout.strip()


# The documents whose Python blocks run: the README and the documentation site's pages.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """(line, source) of each ```python block of a Markdown file, in order."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S)]


# --------------------------------------------------------------------------- the stubs a block may use

CANNED = {  # the arguments the stub model sends each tool (any other tool gets {})
    "files__read_file": {"path": "README.md"},
    "time__get_current_time": {"timezone": "UTC"},
    "book_meeting": {"when": "2026-12-07T09:00:00Z", "minutes": 45},
}


def _schema(*props: str) -> dict:
    return {"type": "object", "properties": {p: {"type": "string"} for p in props}, "required": list(props)}


class StubSession:
    """An MCP session that answers every call with its arguments."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    async def call_tool(self, name: str, arguments: dict) -> dict:
        self.calls.append((name, arguments))
        return {"content": [{"type": "text", "text": json.dumps({"tool": name, "arguments": arguments})}]}


class StubModels:
    """The three model APIs the README calls: each answers by calling every tool it was given."""

    def __init__(self) -> None:
        self.responses = SimpleNamespace(create=self._responses)
        self.messages = SimpleNamespace(create=self._messages)
        self.models = SimpleNamespace(generate_content=self._generate_content)

    @staticmethod
    def _responses(*, tools: list, **_: Any) -> dict:
        return {"output": [{"type": "function_call", "call_id": f"call_{i}", "name": t["name"],
                            "arguments": json.dumps(CANNED.get(t["name"], {}))} for i, t in enumerate(tools)]}

    @staticmethod
    def _messages(*, tools: list, **_: Any) -> dict:
        return {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{i}", "name": t["name"], "input": CANNED.get(t["name"], {})}
            for i, t in enumerate(tools)]}

    @staticmethod
    def _generate_content(*, config: dict, **_: Any) -> dict:
        declared = [d for tool in config["tools"] for d in tool["functionDeclarations"]]
        parts = [{"functionCall": {"id": f"fc_{i}", "name": d["name"], "args": CANNED.get(d["name"], {})}}
                 for i, d in enumerate(declared)]
        return {"candidates": [{"content": {"role": "model", "parts": parts}}]}


def _namespace() -> dict[str, Any]:
    from toolcast.mcp_runtime import execute_tool_calls

    mcp_tool = json.loads((ROOT / "examples" / "refund_order.json").read_text())
    s1, s2, time_session = StubSession(), StubSession(), StubSession()
    return {
        "__name__": "readme", "json": json, "execute_tool_calls": execute_tool_calls,
        "mcp_tool": mcp_tool, "parameters": mcp_tool["inputSchema"],
        "call": SimpleNamespace(arguments=json.dumps({"order_id": "o-1", "amount": None})),
        "files_tools": [{"name": "read_file", "description": "Read a file.", "inputSchema": _schema("path")}],
        "git_tools": [{"name": "git_status", "description": "The status.", "inputSchema": _schema()}],
        "time_tools": [{"name": "get_current_time", "description": "Now.", "inputSchema": _schema("timezone")}],
        "client": StubModels(), "s1": s1, "s2": s2, "sessions": {"files": s1, "git": s2},
        "time_session": time_session,
    }


def _has_error(value: Any) -> bool:
    text = json.dumps(value, default=str)
    return '"is_error": true' in text or '"error":' in text or "Error: " in text


@contextlib.contextmanager
def _agents_offline():
    """The Agents SDK's default client pointed at a loopback Responses stub, no tracing, and
    `toolcast` and `python` on PATH as an installed toolcast has them."""
    agents = pytest.importorskip("agents")
    from agents.models import _openai_shared
    from openai import AsyncOpenAI
    from servers.openai_stub import openai_stub, responses_response

    before = (_openai_shared.get_default_openai_client(), os.environ.get("PATH", ""))
    with openai_stub() as stub:
        stub.replies += [responses_response([("call_1", "time__get_current_time", '{"timezone": "Asia/Tokyo"}')]),
                         responses_response([])]
        agents.set_default_openai_client(AsyncOpenAI(base_url=stub.base_url, api_key="test-key", max_retries=0),
                                         use_for_tracing=False)
        agents.set_tracing_disabled(True)
        os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), before[1]])
        try:
            yield stub
        finally:
            _openai_shared.set_default_openai_client(before[0])
            os.environ["PATH"] = before[1]


def _run(source: str, where: str, ns: dict) -> str:
    code = compile(source, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        pending = eval(code, ns)  # a block with a top-level await gives a coroutine
        if pending is not None:
            asyncio.run(asyncio.wait_for(pending, 120))
    return out.getvalue()


def _run_document(path: Path) -> set[str]:
    """Run a document's Python blocks in order in one namespace; which of the checked examples it held."""
    ns = _namespace()
    seen: set[str] = set()
    for line, source in python_blocks(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        before = dict(ns)
        if "from agents" in source:
            with _agents_offline() as stub:
                printed = _run(source, where, ns)
                requests = [body for _, body in stub.requests]
            seen.add("agents")
            # The model got the proxy's tools strict; the time server's answer went back to it.
            assert all(t["strict"] is True for t in requests[0]["tools"]), where
            outputs = [i for i in requests[1]["input"] if i.get("type") == "function_call_output"]
            assert "Asia/Tokyo" in json.dumps(outputs) and printed.strip() == "calling tools", where
            continue
        printed = _run(source, where, ns)
        for name in ("next_input", "outputs", "blocks", "parts"):
            if name in ns and ns[name] is not before.get(name):
                assert ns[name] and not _has_error(ns[name]), (where, name, ns[name])
        if "def book_meeting" in source:
            seen.add("shapes")
            assert printed.split() == ["strict", "strict"], where
        if "book_meeting]" in source:  # the local function's call ran here, with its typed arguments
            seen.add("local")
            local = [o for o in ns["outputs"] if "booked" in json.dumps(o)]
            assert local and "2026-12-07T09:00:00+00:00" in json.dumps(local), where
            assert ns["time_session"].calls == [("get_current_time", {"timezone": "UTC"})], where
    return seen


@pytest.mark.parametrize("path", [p for p in DOCUMENTS if python_blocks(p)], ids=lambda p: p.name)
def test_the_python_examples_of_each_document_run_in_order(path):
    _run_document(path)


def test_the_examples_of_python_tools_and_of_openai_agents_are_among_them():
    # (wherever the documentation keeps them: the README or a page of docs/)
    found = {"agents": [], "shapes": [], "local": []}
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for key, mark in (("agents", "from agents"), ("shapes", "def book_meeting"), ("local", "book_meeting]")):
            if any(mark in source for _, source in python_blocks(path)) and mark in text:
                found[key].append(path.name)
    assert all(found.values()), found
