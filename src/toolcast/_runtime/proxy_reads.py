"""The proxy's client requests that the MCP SDK cannot read (nested too deep, a lone surrogate escape, a number out of range, not a JSON-RPC message) answered with a JSON-RPC error naming why, where their id can be read, instead of dropped while the client waits."""

from __future__ import annotations

import contextlib
from typing import Any

import anyio

from toolcast._runtime.stdio_lines import request_id


class AnsweredReads:
    """The read stream the proxy's server reads its client on (the SDK's stdio_server's, or any
    transport's): an item that is the SDK's failure to read a message (an exception, which the SDK
    passes on and then only logs) is answered on `write`, for the request's id, and not passed on."""

    def __init__(self, read: Any, write: Any) -> None:
        self._read, self._write = read, write

    @property
    def last_context(self) -> Any:  # (the SDK reads the sender's context of each item here)
        return getattr(self._read, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._read.receive()
            if not isinstance(item, Exception) or not await self._answered(item):
                return item

    def __aiter__(self) -> AnsweredReads:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._read.aclose()

    def close(self) -> None:
        self._read.close()

    async def __aenter__(self) -> AnsweredReads:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _answered(self, exc: Exception) -> bool:
        """Whether `exc` (the SDK's failure to read a message) was answered: a request whose id
        can be read gets a JSON-RPC error (-32700 where its text is no JSON the SDK reads, -32600
        where it is no request), so that its client need not wait for an answer that never comes."""
        found = unread_request(exc)
        if found is None:
            return False
        ident, code, why = found
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        error = types.ErrorData(code=types.PARSE_ERROR if code == "parse" else types.INVALID_REQUEST,
                                message=f"toolcast proxy: the request could not be read: {why}")
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await self._write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error)))
        return True


def unread_request(exc: Exception) -> tuple[int | str, str, str] | None:
    """(the request's id, "parse" or "invalid", why) of the message the SDK failed to read with
    `exc` (pydantic's ValidationError holds the text, or the object read, as its input), or None
    when that is no request with an id an answer can carry."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        found = errors(include_url=False)
    except Exception:
        return None
    for error in found:
        given = error.get("input")
        if isinstance(given, str):
            ident = request_id(given.encode("utf-8", "replace"))
        elif isinstance(given, dict) and "method" in given and type(given.get("id")) in (int, str):
            ident = given["id"]
        else:
            continue
        if ident is not None:
            code = "parse" if error.get("type") == "json_invalid" else "invalid"
            return ident, code, str(error.get("msg", "not a JSON-RPC request"))
    return None
