"""`toolcast probe`: one small real request per compiled tool, and its verdict (accepted, rejected, error, skipped)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from toolcast import probe_wire as wire
from toolcast.model import CompileResult

STATUSES = ("accepted", "rejected", "error", "skipped")
MAX_ARGUMENT_ERRORS = 20


@dataclass(frozen=True)
class Settings:
    """How a probe run is bounded. Every figure is a ceiling: nothing waits or repeats past it."""

    timeout: float = 60.0  # seconds, per request
    max_requests: int = 20  # requests in the whole run, retries included
    retries: int = 2  # further attempts after a 429, and only after a 429
    max_wait: float = 60.0  # the longest wait before a retry; a longer Retry-After is not waited for
    backoff: float = 2.0  # the first wait when the provider names none; doubled for each retry
    jobs: int = 4  # requests under way at once
    max_output_tokens: int = 1024
    dry_run: bool = False


@dataclass(frozen=True)
class Planned:
    """One tool compiled for one target: what would be sent, and what its arguments must satisfy."""

    source: str
    target: str
    api: str
    rules: str
    model: str
    result: CompileResult
    original: Any  # the input schema, as read: the arguments are checked against it


@dataclass(frozen=True)
class Verdict:
    """What one probe found. `kind`: for an error, authentication | model-not-found | rate-limit |
    network | server | setup | unknown; for a skip, refused | no-key | no-sdk | cap | dry-run."""

    source: str
    tool: str
    target: str
    api: str
    rules: str
    model: str
    status: str
    kind: str | None = None
    sent_as: str | None = None  # the compile outcome: strict | non-strict (None: not sent)
    message: str | None = None
    http_status: int | None = None
    called: bool | None = None
    arguments: Any = None
    arguments_valid: bool | None = None
    argument_errors: tuple[dict, ...] = ()
    response_model: str | None = None
    notes: tuple[str, ...] = ()
    attempts: int = 0
    request: dict | None = None
    observed: str | None = None  # UTC time of the answer (ISO 8601)

    @property
    def failed(self) -> bool:
        """A rejection, or arguments the original schema rejects (exit 1)."""
        return self.status == "rejected" or self.arguments_valid is False or self.kind == "refused"

    @property
    def inconclusive(self) -> bool:
        """No verdict on the tool could be had (exit 3): an error, a skip other than a refusal, or
        an acceptance with no call to check."""
        if self.status == "accepted":
            return self.arguments_valid is None
        return self.status == "error" or (self.status == "skipped" and self.kind not in ("refused", "dry-run"))

    def as_json(self) -> dict:
        out: dict = {"tool": self.tool, "source": self.source, "target": self.target, "api": self.api,
                     "rules": self.rules, "model": self.model, "status": self.status}
        for key in ("kind", "sent_as", "message", "http_status", "called"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.called:
            out["arguments"] = self.arguments
        if self.arguments_valid is not None:
            out["arguments_valid"] = self.arguments_valid
            out["argument_errors"] = list(self.argument_errors)
        for key in ("response_model", "observed"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.notes:
            out["notes"] = list(self.notes)
        if self.attempts:
            out["attempts"] = self.attempts
        if self.request is not None:
            out["request"] = self.request
        return out


def exit_code(verdicts: Sequence[Verdict]) -> int:
    """0: every tool accepted with valid arguments; 1: a rejection, invalid arguments or a refused
    tool (before 3); 3: no verdict for some tool (an error, a skip, no call to check)."""
    if any(v.failed for v in verdicts):
        return 1
    if any(v.inconclusive for v in verdicts):
        return 3
    return 0


# -- checking arguments ------------------------------------------------------------------------
def check_arguments(schema: Any, arguments: Any) -> tuple[bool | None, tuple[dict, ...], str | None]:
    """(valid, errors, why not checked) of `arguments` against the ORIGINAL schema, with jsonschema
    in the dialect its $schema names (2020-12 when none) and formats checked. A $ref is resolved
    inside the schema only: one to another document is never fetched, and leaves the check open."""
    from jsonschema import validators
    from jsonschema.exceptions import SchemaError
    from referencing import Registry
    from referencing.exceptions import NoSuchResource, Unresolvable

    def offline(uri: str) -> Any:
        raise NoSuchResource(ref=uri)

    if not isinstance(schema, (dict, bool)):
        return None, (), "the original schema is not a JSON Schema object"
    cls = validators.validator_for(schema, default=validators.Draft202012Validator)
    try:
        cls.check_schema(schema)
        checker = cls(schema, registry=Registry(retrieve=offline), format_checker=cls.FORMAT_CHECKER)
        errors = sorted(checker.iter_errors(arguments), key=lambda e: (list(e.absolute_path), e.message))
    except SchemaError as exc:
        return None, (), f"the original schema is not valid for its dialect: {exc.message}"
    except (Unresolvable, RecursionError) as exc:  # (jsonschema wraps the first: caught by its base)
        return None, (), f"not checked: {exc}"
    except Exception as exc:
        if isinstance(getattr(exc, "__cause__", None), Unresolvable) or "Unresolvable" in type(exc).__name__:
            return None, (), f"not checked: a $ref cannot be resolved offline ({exc})"
        raise
    out = tuple({"path": "/" + "/".join(str(p) for p in e.absolute_path), "message": e.message[:300]}
                for e in errors[:MAX_ARGUMENT_ERRORS])
    return not errors, out, None


# -- running -----------------------------------------------------------------------------------
class _Counter:
    """The run's request budget, shared by the workers."""

    def __init__(self, cap: int) -> None:
        self.left, self.lock = cap, threading.Lock()
        self.stopped = threading.Event()  # (set on ^C: no request is started after it)

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0 or self.stopped.is_set():
                return False
            self.left -= 1
            return True

    def stop(self) -> None:
        with self.lock:
            self.stopped.set()


class Interrupted(Exception):
    """^C (or SIGTERM) stopped the run: `verdicts` are those of the requests already made, the
    rest `skipped` (`interrupted`); `reason` is the KeyboardInterrupt or SystemExit to re-raise."""

    def __init__(self, verdicts: list[Verdict], reason: BaseException) -> None:
        super().__init__("interrupted")
        self.verdicts, self.reason = verdicts, reason


def skipped(p: Planned, kind: str, message: str, request: dict | None = None) -> Verdict:
    return Verdict(p.source, p.result.name, p.target, p.api, p.rules, p.model, "skipped", kind,
                   message=message, request=request, sent_as=None if kind == "refused" else p.result.status)


def held(plans: Sequence[Planned]) -> list[Verdict]:
    """The verdicts of a run held back by input errors: every tool listed, none sent."""
    return [skipped(p, "refused", "toolcast refused the tool, so it is not sent (see `toolcast check`)")
            if p.result.status == "refused" or p.result.tool is None else
            skipped(p, "input-error", "not sent: the run has input errors (fix them, or name only the good files)")
            for p in plans]


def run(plans: Sequence[Planned], settings: Settings, *, environ: Any = None,
        sleep: Callable[[float], Any] | None = None, make_client: Callable[..., Any] | None = None) -> list[Verdict]:
    """One verdict per plan, in the plans' order. At most `settings.jobs` requests are under way at
    once and `settings.max_requests` are made in all; a tool past that cap is skipped (`cap`).
    `make_client(target, timeout, on_request, dry=)` builds an SDK client (tests point it elsewhere).
    ^C sends nothing more: Interrupted, with the verdicts of the requests already made."""
    environ = os.environ if environ is None else environ
    make_client = make_client or wire.client
    counter = _Counter(settings.max_requests)
    sleep = sleep or counter.stopped.wait  # (a wait before a retry ends at ^C)
    verdicts: list[Verdict | None] = [None] * len(plans)
    todo: list[tuple[int, Planned]] = []
    for i, p in enumerate(plans):
        if p.result.status == "refused" or p.result.tool is None:
            verdicts[i] = skipped(p, "refused", "toolcast refused the tool, so it is not sent (see `toolcast check`)")
        elif not settings.dry_run and not wire.has_key(p.target, environ):
            names = " or ".join(wire.KEY_ENV[p.target])
            verdicts[i] = skipped(p, "no-key", f"no credentials: set {names}" + (
                " (with Application Default Credentials)" if wire.SDK[p.target] == "google-genai-vertex" else ""))
        else:
            todo.append((i, p))
    workers = max(1, min(settings.jobs, len(todo)))
    if todo:
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="toolcast-probe")
        futures: list[tuple[int, Planned, Any]] = []
        try:
            for i, p in todo:
                futures.append((i, p, pool.submit(_probe_one, p, settings, counter, sleep, make_client)))
            for i, _, fut in futures:
                verdicts[i] = fut.result()
        except (KeyboardInterrupt, SystemExit) as stop:  # (SystemExit: SIGTERM, as cli.streams raises it)
            counter.stop()
            pool.shutdown(wait=False, cancel_futures=True)
            _await_sent(futures)
            raise Interrupted(_so_far(verdicts, todo, {i: fut for i, _, fut in futures}), stop) from None
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    return [v for v in verdicts if v is not None]


def _await_sent(futures: list[tuple[int, Planned, Any]]) -> None:
    """Wait for the requests under way at ^C (paid for: their verdicts are reported); a second ^C
    stops waiting."""
    from concurrent.futures import wait

    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        wait([fut for _, _, fut in futures if not fut.cancelled()])


def _so_far(verdicts: list[Verdict | None], todo: list[tuple[int, Planned]], futures: dict[int, Any]) -> list[Verdict]:
    """The verdicts of an interrupted run: those made, and `skipped` (`interrupted`) for the rest."""
    for i, p in todo:
        fut = futures.get(i)
        if verdicts[i] is not None:
            continue
        if fut is not None and fut.done() and not fut.cancelled() and fut.exception() is None:
            verdicts[i] = fut.result()
        elif fut is not None and fut.running():  # (sent, and a second ^C stopped the wait for its answer)
            failure = wire.Failure("error", "interrupted", "the run was interrupted before the answer came", None, None)
            verdicts[i] = _failed(p, failure, 1, [], [])
        else:
            verdicts[i] = skipped(p, "interrupted", "not sent: the run was interrupted")
    return [v for v in verdicts if v is not None]


def _probe_one(p: Planned, settings: Settings, counter: _Counter, sleep: Callable[[float], None],
               make_client: Callable[..., Any]) -> Verdict:
    sent: list[dict] = []

    def capture(request: Any) -> None:
        sent.append(_request_record(request))

    try:
        sdk = make_client(p.target, settings.timeout, capture, dry=settings.dry_run)
    except ImportError as exc:
        return skipped(p, "no-sdk", f"the {p.target} SDK is not installed (pip install 'toolcast[probe]'): {exc}")
    except Exception as exc:  # the SDK's own refusal of its settings (conflicting environment variables)
        return _failed(p, wire.Failure("error", "setup", f"the {p.target} client: {exc}", None, None), 0, sent, [])
    params = wire.body(p.target, p.api, p.result.tool, p.result.name, p.model, p.result.status == "strict",
                       settings.max_output_tokens)
    if settings.dry_run:
        with contextlib.suppress(Exception):  # (the dry transport refuses it, as intended)
            wire.send(p.target, p.api, sdk, params)
        return skipped(p, "dry-run", "dry run: not sent", sent[-1] if sent else None)
    attempts, notes, failure = 0, [], None
    taken = counter.take()
    while True:
        if not taken:
            return _not_taken(p, counter, settings, attempts, failure, sent, notes)
        attempts += 1
        try:
            response = wire.send(p.target, p.api, sdk, params)
        except Exception as exc:
            failure = wire.classify(exc, p.target)
            if failure is None:  # not an answer of the provider's: one tool's failure, said, never the run's
                if os.environ.get("TOOLCAST_DEBUG"):
                    raise
                failure = wire.Failure("error", "unknown", f"{type(exc).__name__}: {exc}", None, None)
            wait = _retry_wait(failure, attempts, settings, notes)
            if wait is None:
                return _failed(p, failure, attempts, sent, notes)
            taken = counter.take()  # (before the wait: a retry past the cap is neither waited for nor said)
            if taken:
                sleep(wait)
                taken = not counter.stopped.is_set()
                if taken:
                    notes.append(f"429: retried after {wait:g} s")
            continue
        try:
            return _accepted(p, response, attempts, sent, notes)
        except Exception as exc:  # an answer in a shape the SDK let through but that is not one
            if os.environ.get("TOOLCAST_DEBUG"):
                raise
            failure = wire.Failure("error", "unknown", f"unreadable answer: {type(exc).__name__}: {exc}", None, None)
            return _failed(p, failure, attempts, sent, notes)


def _not_taken(p: Planned, counter: _Counter, settings: Settings, attempts: int, failure: wire.Failure | None,
               sent: list[dict], notes: list[str]) -> Verdict:
    """The verdict of a tool whose next request the run may not make: past the cap, or after ^C."""
    if counter.stopped.is_set():
        if attempts == 0 or failure is None:
            return skipped(p, "interrupted", "not sent: the run was interrupted")
        return _failed(p, failure, attempts, sent, [*notes, "not retried: the run was interrupted"])
    if attempts == 0 or failure is None:
        return skipped(p, "cap", f"not sent: the run's cap of {settings.max_requests} request(s) was reached")
    return _failed(p, failure, attempts, sent, [*notes, f"not retried: the run's cap of {settings.max_requests} "
                                                        "request(s) was reached"])


def _retry_wait(failure: wire.Failure, attempts: int, settings: Settings, notes: list[str]) -> float | None:
    """Seconds to wait before another attempt, or None: only a 429 is retried, `retries` times, and
    never past `max_wait` (a longer Retry-After is reported, not waited for)."""
    if failure.kind != "rate-limit" or attempts > settings.retries:
        return None
    wait = failure.retry_after if failure.retry_after is not None else settings.backoff * 2 ** (attempts - 1)
    if wait > settings.max_wait:
        notes.append(f"not retried: the provider asked to wait {wait:g} s, over --max-wait {settings.max_wait:g} s")
        return None
    return wait


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _failed(p: Planned, failure: wire.Failure, attempts: int, sent: list[dict], notes: list[str]) -> Verdict:
    return Verdict(p.source, p.result.name, p.target, p.api, p.rules, p.model, failure.status, failure.kind,
                   sent_as=p.result.status, message=wire.redact(failure.message), http_status=failure.http_status,
                   notes=tuple(notes), attempts=attempts, request=sent[-1] if sent else None, observed=_now())


def _accepted(p: Planned, response: Any, attempts: int, sent: list[dict], notes: list[str]) -> Verdict:
    from toolcast._runtime.loop import decode_arguments
    from toolcast.nulls import strip_nulls

    call = wire.read_call(p.target, p.api, p.result.name, response)
    notes = notes + list(call.notes)
    base = Verdict(p.source, p.result.name, p.target, p.api, p.rules, p.model, "accepted", sent_as=p.result.status,
                   called=call.called, response_model=call.model, attempts=attempts,
                   request=sent[-1] if sent else None, observed=_now())
    if not call.called:
        return replace(base, notes=tuple(notes))
    args, problem = decode_arguments(p.result.name, call.arguments)
    if args is None:
        return replace(base, arguments=call.arguments, arguments_valid=False, notes=tuple(notes),
                       argument_errors=({"path": "", "message": problem},))
    # The nulls strict mode made the model send are the loop's to strip: the handler never sees them.
    args = strip_nulls(args, p.result.null_paths)
    try:
        valid, errors, why = check_arguments(p.original, args)
    except ImportError as exc:
        valid, errors, why = None, (), f"arguments not checked: jsonschema is not installed (pip install 'toolcast[probe]'): {exc}"
    if why:
        notes.append(why)
    return replace(base, arguments=args, arguments_valid=valid, argument_errors=errors, notes=tuple(notes))


def _request_record(request: Any) -> dict:
    """The request as sent: method, URL without its query (a key may ride in it), and the JSON body.
    Headers are left out: they carry the key."""
    url = str(request.url).split("?", 1)[0]
    try:
        content = json.loads(request.content or b"null")
    except ValueError:
        content = (request.content or b"").decode("utf-8", "replace")
    return {"method": request.method, "url": url, "body": content}


def plan(items: Iterable[tuple[str, Any, CompileResult]], target: str, api: str, rules: str,
         model: str) -> list[Planned]:
    """Plans for (source, input tool, compile result) under one target."""
    from toolcast.tool_input import read_tool

    out = []
    for source, tool, res in items:
        try:
            original = read_tool(tool)[2]
        except Exception:  # (a tool compile_tool read is readable: this is a guard, not a path)
            original = None
        out.append(Planned(source, target, api, rules, model, res, original))
    return out


