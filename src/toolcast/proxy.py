"""`toolcast proxy`: a stdio MCP server that fronts MCP servers, their tools compiled for one target."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import anyio

from toolcast._runtime.mcp_session import _sdk_log_to
from toolcast._runtime.proxy_budget import HeldAnswers
from toolcast._runtime.proxy_marks import mark_non_strict
from toolcast._runtime.proxy_names import NameRegistry, check_server_name
from toolcast._runtime.proxy_options import (  # noqa: F401  (DEFAULT_TIMEOUT: part of the module's API)
    DEFAULT_TIMEOUT,
    ServerSpec,
    parse_server,
    server_specs,
)
from toolcast._runtime.proxy_reads import AnsweredReads
from toolcast._runtime.proxy_request import ListingBudget
from toolcast._runtime.proxy_upstream import _reason, _Upstream
from toolcast.mcp_runtime import McpServerError
from toolcast.walk.values import non_json

__all__ = ["Proxy", "ServerSpec", "parse_server", "serve_stdio"]

#: How long tools/list waits for servers that are down to come up before it answers.
LIST_RETRY_WAIT = 2.0
#: How long the first tools/list waits for servers still starting: past it, it lists the servers
#: that are up, and the client is told (list_changed) when the others come up.
FIRST_LIST_WAIT = 10.0
# Fields of an upstream tool passed on as they are: a client may validate structuredContent
# against outputSchema, and annotations tell it what a tool does.
_KEPT_FIELDS = ("title", "annotations", "outputSchema", "icons", "_meta")
# The MCP SDK's JSON-RPC code for a request whose connection closed (servers use it for their own errors too).
_CONNECTION_CLOSED = -32000


def _error_result(text: str) -> Any:
    import mcp_types as types

    return types.CallToolResult(
        content=[types.TextContent(text=f"toolcast proxy: {text}")], is_error=True
    )


def _validation_text(exc: BaseException) -> str:
    errors = getattr(exc, "errors", None)
    try:
        first = errors()[0] if callable(errors) else None
    except Exception:
        first = None
    if first:
        where = ".".join(str(p) for p in first.get("loc", ())) or "result"
        return f"{where}: {first.get('msg', '')}"[:300]
    return _reason(exc)[:300]


@dataclass
class _Listing:
    """What the proxy lists: the ToolSet, each exposed tool's MCP form and its null paths."""

    toolset: Any
    tools: list[Any]
    null_paths: dict[str, tuple[tuple[Any, ...], ...]]
    lines: list[str]
    # Per tool sent strict with constraints enforced at run time (--enforce): its calls' check.
    checks: dict[str, Any] = field(default_factory=dict)


def _parameters(target: str, emitted: Any) -> Any:
    """The parameters schema of a tool compiled for ``target``: where the target's own wire shape
    keeps it (Bedrock's ``toolSpec.inputSchema.json``, OpenAI's ``parameters``, ...); None when
    the tool holds none."""
    from toolcast.providers import EMITTERS

    emitter = EMITTERS.get(target)
    if emitter is None or not isinstance(emitted, Mapping):
        return None
    try:
        schema = emitter.schema_of(dict(emitted))
    except KeyError:
        return None
    return schema if isinstance(schema, Mapping) else None


class Proxy:
    """Fronts ``servers``; lists their tools compiled for ``target``; forwards calls back."""

    def __init__(
        self,
        servers: Sequence[ServerSpec],
        *,
        target: str = "openai",
        api: str | None = None,
        strict: str | bool = "auto",
        rules: str | None = None,
        allow_lossy: bool = False,
        err: IO[str] | None = None,
        enforce: bool = False,
    ) -> None:
        names = [s.name for s in servers]
        if len(set(names)) != len(names):
            raise ValueError(f"server names must be unique, got {names}")
        for name in names:
            check_server_name(name)
        self.specs = list(servers)
        # (the API the listing compiles under: given, else the target's wire.proxy.api)
        self.target, self.api, self.strict = target, proxy_api(target, api), strict
        self.rules, self.allow_lossy = rules, allow_lossy
        self.enforce = enforce  # (checkable losses enforced on each call before it is forwarded)
        self.err = err
        self.upstreams = {s.name: _Upstream(s, err, self._changed_by(s.name)) for s in servers}
        self.tools_by_server: dict[str, list[dict[str, Any]]] = {}
        #: Per server that is down: why (it failed to start or to list); retried on demand.
        self.down: dict[str, str] = {}
        self.listing = _Listing(None, [], {}, [])
        self._tg: Any = None
        # The client's session, from its requests: to tell it when the tools change later.
        self._client: Any = None
        self._retrying: Any = None  # the event of the retry under way, if any
        self._lists_waiting = 0
        self.names = NameRegistry(self._say)  # each exposed name's owner, for the proxy's lifetime
        self.answers = HeldAnswers()  # results in the answer budget until written to the client
        self._ready: Any = None  # set once the servers were first listed (serve starts them in the background)
        self._built = False  # whether a listing was built (before it, a relist only records the tools)
        self._early = False  # whether a client got a listing before every server had started
        # (per server: a relist running; one more due after it, for the notices that came meanwhile)
        self._relisting: set[str] = set()
        self._relist_due: set[str] = set()

    # ------------------------------------------------------------------ compile

    def _compile(self, tool: dict[str, Any]) -> Any:
        from toolcast import compile_tool

        return compile_tool(
            tool,
            target=self.target,
            api=self.api,
            rules=self.rules,
            strict=self.strict,
            allow_lossy=self.allow_lossy,
            **({"enforce": True} if self.enforce else {}),
        )

    def _build(self) -> _Listing:
        import mcp_types as types

        from toolcast.enforce import argument_check
        from toolcast.toolset import ToolSet, thaw

        toolset, naming = ToolSet.build(
            [(s.name, self.tools_by_server.get(s.name, [])) for s in self.specs],
            target=self.target, api=self.api, rules=self.rules,
        )
        tools: list[Any] = []
        null_paths: dict[str, tuple[tuple[Any, ...], ...]] = {}
        checks: dict[str, Any] = {}
        lines = list(naming.lines())
        budget = ListingBudget(self.target, self.api, self.rules, self.strict)
        for exposed in self.names.admit(toolset.tools):
            where = f"{exposed.name} ({exposed.server}/{exposed.tool})"
            try:
                tool = exposed.to_tool()
                result = budget.take(tool, self._compile(tool))
            except Exception as exc:  # one bad tool never stops the others
                lines.append(f"{where} left out: it cannot be compiled: {_reason(exc)}")
                continue
            if result.status == "refused":
                codes = sorted({str(d.code) for d in result.diagnostics if d.outcome == "refuses"})
                lines.append(f"{where} left out: refused ({', '.join(codes) or result.status}){budget.why(result)}")
                continue
            schema = _parameters(self.target, result.tool)
            if schema is None:  # (a target whose compiled tool keeps no JSON Schema where it says)
                budget.give_back()
                lines.append(f"{where} left out: its compiled {self.target} tool holds no JSON Schema to list")
                continue
            if result.status == "strict":
                null_paths[exposed.name] = tuple(tuple(p) for p in result.null_paths)
                check = argument_check(result)
                if check is not None:
                    checks[exposed.name] = check
            else:
                # (what kept it from strict: a refusal, or a loss not allowed)
                codes = sorted({str(d.code) for d in result.diagnostics if d.outcome in ("refuses", "lossy")})
                why = f"{', '.join(codes) or 'status ' + result.status}"
                lines.append(f"{where} sent non-strict ({why}){budget.why(result)}")
            lossy = sorted({str(d.code) for d in result.diagnostics if d.outcome == "lossy"})
            if lossy and result.status == "strict":  # (--allow-lossy: what the model is no longer held to)
                lines.append(f"{where} sent strict with a loss: {', '.join(lossy)}")
            original = thaw(exposed.definition)
            description = (result.tool or {}).get("description", exposed.description)
            entry = {"name": exposed.name, "inputSchema": thaw(schema)}
            if isinstance(description, str):
                entry["description"] = description
            entry.update({k: original[k] for k in _KEPT_FIELDS if k in original})
            if result.status != "strict":  # the client is told, and its own strict conversion kept off
                mark_non_strict(entry, result, self.target)
            try:
                tools.append(types.Tool.model_validate(entry, by_alias=True))
            except Exception as exc:
                budget.give_back()
                lines.append(f"{where} left out: not a valid MCP tool after compiling: {_validation_text(exc)}")
                continue
        return _Listing(toolset, tools, null_paths, lines, checks)

    # ------------------------------------------------------------------ servers

    async def _list(self, name: str) -> bool:
        """Connect to server ``name`` and list its tools; False (reported) when it fails."""
        upstream = self.upstreams[name]
        try:
            tools = await upstream.list(self._tg)  # (an HTTP server's: tried again, with back-off)
        except (Exception, BaseExceptionGroup) as exc:
            why = _reason(exc)
            if self.down.get(name) != why:  # (said once, not again on each retry that fails alike)
                self._say(f"{upstream.spec.shown} is unavailable: {why}")
            self.down[name] = why
            if upstream.spec.url is None and upstream.session is None:
                # (a server whose session is up keeps its tools, as an HTTP server does: only the
                # listing failed, and its calls fail alone)
                self.tools_by_server.pop(name, None)
            return False
        if self.down.pop(name, None) is not None:
            self._say(f"{upstream.spec.shown} is up")
        self.tools_by_server[name] = tools
        return True

    async def _retry_down(self) -> bool:
        """Try every server that is down again (concurrently); whether the listing changed."""
        tried = set(self.down)
        if not tried:
            return False
        async with anyio.create_task_group() as retrying:
            for name in tried:
                retrying.start_soon(self._list, name)
        return not tried <= set(self.down) and self._rebuild("")  # none came up: nothing new

    def _retry(self) -> Any:
        """A retry of the servers that are down, run in the proxy's task group (one at a time);
        the event it returns is set when it ends. When the tools changed, the client is told,
        unless a tools/list is still waiting to answer with them."""
        if self._retrying is None or self._retrying.is_set():
            done = self._retrying = anyio.Event()

            async def attempt() -> None:
                try:
                    if await self._retry_down() and not self._lists_waiting:
                        await self._notify()
                finally:
                    done.set()

            self._tg.start_soon(attempt)
        return self._retrying

    def _rebuild(self, changed_by: str | None = None) -> bool:
        """Compile the listing again; whether the tools it exposes changed (then, given ``changed_by``,
        it is said, with the summary's count and its lines not said for the listing before)."""
        before = self.listing
        self.listing = self._build()
        self._built = True
        changed = self.listing.tools != before.tools
        if changed and changed_by is not None:
            self._summary(changed_by, set(before.lines))
        return changed

    def _changed_by(self, server: str) -> Callable[[], None]:
        """The server's list_changed: a relist, unless one is under way (then one more after it:
        a burst of notices costs two listings, not one each)."""

        def changed() -> None:
            if self._tg is None:
                return
            if server in self._relisting:
                self._relist_due.add(server)
                return
            self._relisting.add(server)
            self._tg.start_soon(self._relists, server)

        return changed

    async def _relists(self, server: str) -> None:
        try:
            while True:
                self._relist_due.discard(server)
                await self._relist(server)
                if server not in self._relist_due:
                    return
        finally:
            self._relisting.discard(server)
            self._relist_due.discard(server)

    async def start(self, tg: Any) -> None:
        """Connect to every server (concurrently), list and compile their tools, report; a client
        that got a listing before the last server started is told when the tools changed."""
        self._tg = tg
        changed = False
        try:
            async with anyio.create_task_group() as starting:
                for spec in self.specs:
                    starting.start_soon(self._list, spec.name)
            changed = self._rebuild()
            self._summary()
        finally:
            if self._ready is not None:
                self._ready.set()
        if changed and self._early:
            await self._notify()

    async def stop(self) -> None:
        for upstream in self.upstreams.values():
            if upstream.session is not None:
                upstream.drop(upstream.session)

    def _say(self, line: str) -> None:
        if self.err is not None:
            with contextlib.suppress(Exception):
                self.err.write(f"toolcast proxy: {line}\n")
                self.err.flush()

    def _summary(self, heading: str = "", said: set[str] | frozenset[str] = frozenset()) -> None:
        if heading:
            self._say(heading)
        listing = self.listing
        strict = len(listing.null_paths)
        total = len(listing.toolset) if listing.toolset is not None else 0
        up = sum(1 for s in self.specs if s.name in self.tools_by_server)
        self._say(
            f"target {self.target}: {up} of {len(self.specs)} server(s) up, {total} tool(s): "
            f"{strict} strict, {len(listing.tools) - strict} non-strict, "
            f"{total - len(listing.tools)} left out"
        )
        for line in listing.lines:
            if line not in said:
                self._say(line)

    # ------------------------------------------------------------------ MCP handlers

    async def on_list_tools(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types

        self._client = ctx.session
        if self._ready is not None and not self._ready.is_set():
            # One server slow to start must not hold up the others' tools: past a moment, the
            # answer is the tools of the servers up, and a change is notified when the rest are.
            with anyio.move_on_after(FIRST_LIST_WAIT):
                await self._ready.wait()
            if not self._ready.is_set() and not self._early:
                self._early = True
                self._rebuild()
                starting = [s.shown for s in self.specs if s.name not in self.tools_by_server and s.name not in self.down]
                self._say(f"listing the tools of the servers up; still starting: {', '.join(starting)}")
        if self.down:
            # A server that takes long to fail again must not hold up the listing: past a
            # moment, the answer is the tools as they are, and a change is notified later.
            self._lists_waiting += 1
            try:
                with anyio.move_on_after(LIST_RETRY_WAIT):
                    await self._retry().wait()
            finally:
                self._lists_waiting -= 1
        return types.ListToolsResult(tools=list(self.listing.tools))

    async def on_call_tool(self, ctx: Any, params: Any) -> Any:
        from toolcast._runtime.loop import strip_call_nulls

        self._client = ctx.session
        name = params.name
        exposed = self._exposed(name)
        if exposed is None and self._ready is not None and not self._ready.is_set():
            await self._ready.wait()  # (it may be a tool of a server still starting)
            exposed = self._exposed(name)
        if exposed is None and self.down:  # it may be a tool of a server that is down
            await self._retry().wait()
            exposed = self._exposed(name)
        if exposed is None:
            down = "".join(
                f"; {self.upstreams[server].spec.shown} is unavailable: {why}"
                for server, why in sorted(self.down.items())
            )
            return _error_result(f"unknown tool {name!r}{down}")
        listing = self.listing
        arguments = params.arguments or {}
        if not isinstance(arguments, Mapping):
            return _error_result(f"arguments for tool {name!r} must be an object")
        bad = non_json(arguments)
        if bad is not None:  # (the SDK reads NaN, and would forward it as null: maybe at a null path)
            place = "".join(f"[{t!r}]" for t in bad[0])
            return _error_result(f"arguments for tool {name!r} hold what JSON cannot carry: {bad[1]} at arguments{place}")
        arguments = strip_call_nulls(name, dict(arguments), listing.null_paths)
        check = listing.checks.get(name)
        if check is not None:  # (--enforce) a call that breaks an enforced constraint is not forwarded
            problem = check.message(name, arguments)
            if problem is not None:
                return _error_result(problem)
        return self.answers.hold(getattr(ctx, "request_id", None), await self._forward(ctx, exposed, arguments))

    async def _forward(self, ctx: Any, exposed: Any, arguments: dict[str, Any]) -> Any:
        upstream = self.upstreams[exposed.server]
        where = f"tool {exposed.tool!r} on {upstream.spec.shown}"
        restarted = upstream.session is None and upstream.starts > 0
        try:
            session = await upstream.connect(self._tg)
        except McpServerError as exc:
            return _error_result(f"{where} could not be reached: {exc}")
        if restarted:
            await self._relist(exposed.server)
        timeout = upstream.spec.timeout
        try:
            with anyio.fail_after(timeout):
                result = await session.call_tool(exposed.tool, arguments)
            structured = getattr(result, "structured_content", None)
            bad = non_json(structured) if structured is not None else None
            if bad is not None:
                # Passed on, the SDK's JSON dump would write a NaN as null: a silent change.
                place = "".join(f"[{t!r}]" for t in bad[0])
                return _error_result(f"{where} answered with structuredContent JSON cannot carry: {bad[1]} at "
                                     f"structuredContent{place}")
            return result
        except TimeoutError:
            return _error_result(f"{where} did not answer within {timeout:g} s")
        except ValueError as exc:  # pydantic's ValidationError: an answer that is not a result
            return _error_result(f"{where} answered with something that is not a tool result: {_validation_text(exc)}")
        except Exception as exc:
            answered = hasattr(exc, "error") and getattr(exc, "code", None) is not None
            if answered and exc.code != _CONNECTION_CLOSED and not upstream.forgotten(session):  # type: ignore[attr-defined]
                # The server answered the call with a JSON-RPC error: it is alive.
                return _error_result(f"{where} answered with an error: {_reason(exc)}")
            if await upstream.alive(session, timeout):
                # Alive after all: a server error with the SDK's code for a closed connection, a
                # cut HTTP request, or an answer the SDK refused (structuredContent its
                # outputSchema does not allow). Only this call failed; a restart would fail every
                # call in flight on the server.
                said = "answered with an error" if answered else "failed"
                return _error_result(f"{where} {said}: {_reason(exc)}")
            await upstream.settle()
            upstream.drop(session)
            # (an HTTP server is not started by the proxy: a new session is opened with it)
            again = "a new session is opened with the server" if upstream.spec.url else "the server is started again"
            return _error_result(f"{where} failed: {_reason(exc)}{upstream.exit_detail()}; {again} on the next call")

    def _exposed(self, name: str) -> Any:
        listing = self.listing
        exposed = listing.toolset.get(name) if listing.toolset is not None else None
        if exposed is None or not any(t.name == name for t in listing.tools):
            return None
        return exposed

    async def _relist(self, server: str) -> None:
        """List the server's tools again (after a restart, or when it said they changed);
        tell the client when the tools the proxy exposes changed."""
        await self._list(server)
        if self._built and self._rebuild(f"{self.upstreams[server].spec.shown}: its tools changed"):  # (else: at start)
            await self._notify()

    async def _notify(self) -> None:
        if self._client is None:
            return  # no client has asked yet: it lists the tools as they are now
        with contextlib.suppress(Exception):  # a client that has gone cannot be told
            await self._client.send_tool_list_changed()

    def server(self) -> Any:
        """The MCP SDK low-level ``Server`` answering ``tools/list`` and ``tools/call``."""
        from mcp.server.lowlevel import Server

        from toolcast import __version__

        return Server(
            "toolcast-proxy",
            version=__version__,
            on_list_tools=self.on_list_tools,
            on_call_tool=self.on_call_tool,
        )


async def serve(proxy: Proxy, read: Any, write: Any) -> None:
    """Start ``proxy``'s servers, then answer MCP on ``read``/``write`` until the client leaves."""
    from mcp.server.lowlevel import NotificationOptions

    server = proxy.server()
    options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    proxy._ready = anyio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(proxy.start, tg)  # initialize is answered at once; tools/list waits for the start
        try:
            await server.run(AnsweredReads(read, write), proxy.answers.releasing(write), options)
        finally:
            await proxy.stop()
            tg.cancel_scope.cancel()


def serve_stdio(proxy: Proxy) -> None:
    """Run ``proxy`` on this process's stdin/stdout (the `toolcast proxy` command); SIGINT and
    SIGTERM stop its servers and end the process within a bound."""
    from toolcast._runtime.proxy_signals import serve_stdio as serve_signalled

    serve_signalled(proxy, serve)


def check_target(target: str, api: str | None, rules: str | None = None) -> None:
    """Raise ValueError naming the problem when the compile API does not know ``target``, ``api``
    (not one of the target's APIs the proxy can list) or ``rules`` (not a version of the target's
    provider), as `toolcast compile` refuses them."""
    from toolcast import compile_tool

    compile_tool({"name": "probe", "inputSchema": {"type": "object"}}, target=target, rules=rules,
                 api=proxy_api(target, api))


def proxy_api(target: str, api: str | None) -> str | None:
    """The API the proxy compiles ``target``'s tools under: ``api`` when given, else the target's
    `wire.proxy.api` (its default API unless stated). Either way its tools' schema must be a JSON
    Schema, as MCP clients read it: an API whose rule family writes another form (Gemini's OpenAPI
    `parameters`, policy schema_form) is refused, naming those it can list. None: an unknown target
    (compile names it)."""
    from toolcast.providers import EMITTERS, PROVIDER_OF
    from toolcast.rules import family, get_rules

    emitter = EMITTERS.get(target)
    if emitter is None:
        return api
    if api is None:
        return emitter.proxy_api
    listable = [a for a in emitter.APIS
                if get_rules(None, family(target, a) or PROVIDER_OF[target]).policy.get("schema_form") is None]
    if api not in listable:
        raise ValueError(f"--api {api}: the proxy lists target {target}'s tools as JSON Schema, under "
                         f"--api {' or '.join(listable)}")
    return api


def main_cli(args: Any, err: IO[str]) -> int:
    """`toolcast proxy`: 2 with a one-line message on a usage problem, else serve until EOF."""
    from toolcast._runtime.stdio_lines import set_answer_budget

    try:
        specs = server_specs(args)
        check_target(args.target, args.api, args.rules)
        set_answer_budget(getattr(args, "memory_budget", 512.0))
        proxy = Proxy(specs, target=args.target, api=args.api, strict=args.strict,
                      rules=args.rules, allow_lossy=args.allow_lossy, err=err,
                      enforce=getattr(args, "enforce", False))
    except (ValueError, McpServerError) as exc:
        err.write(f"toolcast proxy: {exc}\n")
        return 2
    # The SDK logs what it could not read (with a traceback): one warning line each instead.
    with _sdk_log_to("", lambda line: proxy._say(f"warning: {line}")):
        serve_stdio(proxy)
    return 0
