"""A stdio MCP server for tests: images, audio, errors, structured results, delays and crashes."""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import zlib
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import (
    AudioContent,
    CallToolResult,
    ImageContent,
    TextContent,
)
from pydantic import BaseModel

server = MCPServer("toolcast-media-test")


def png_bytes(width: int = 2, height: int = 2) -> bytes:
    """A valid RGB PNG, built by hand so the test needs no imaging library."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


@server.tool(description="Return a PNG image and a caption.")
def snapshot(caption: str) -> CallToolResult:
    data = base64.b64encode(png_bytes()).decode("ascii")
    return CallToolResult(
        content=[TextContent(text=caption), ImageContent(data=data, mime_type="image/png")]
    )


@server.tool(description="Return a short WAV-like audio blob.")
def beep() -> CallToolResult:
    data = base64.b64encode(b"RIFF" + b"\x00" * 60).decode("ascii")
    return CallToolResult(content=[AudioContent(data=data, mime_type="audio/wav")])


@server.tool(description="Fail with isError.")
def fail(reason: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=f"cannot comply: {reason}")], is_error=True)


@server.tool(description="Return only structuredContent, no content blocks.")
def stats(values: list[int]) -> CallToolResult:
    return CallToolResult(
        content=[],
        structured_content={"count": len(values), "total": sum(values)},
    )


class Label(BaseModel):
    key: str
    value: str = ""


@server.tool(description="Echo the arguments received. Optional fields reject null.")
def echo(text: str, note: str = "", repeat: int = 1, labels: list[Label] = []) -> dict[str, Any]:  # noqa: B006
    return {
        "text": text,
        "note": note,
        "repeat": repeat,
        "labels": [label.model_dump() for label in labels],
    }


@server.tool(description="Sleep for the given seconds, then answer.")
async def slow(seconds: float) -> str:
    await asyncio.sleep(seconds)
    return f"slept {seconds}"


@server.tool(description="Kill the server process without answering.")
def crash() -> str:
    os._exit(7)


if __name__ == "__main__":
    server.run()
