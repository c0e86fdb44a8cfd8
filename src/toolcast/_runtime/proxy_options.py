"""`toolcast proxy`'s servers as given on its command line: --server, --server-timeout, --auth-env."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULT_TIMEOUT", "ServerSpec", "parse_server", "server_specs"]

#: How long a server may take to start (or connect) and to answer one call, unless told.
DEFAULT_TIMEOUT = 60.0
@dataclass(frozen=True)
class ServerSpec:
    """One fronted MCP server: a stdio ``command`` or a Streamable HTTP ``url``."""

    name: str
    command: str | None = None
    url: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: A stdio server's environment on top of the MCP SDK's default one (None: that one alone).
    env: Mapping[str, str] | None = field(default=None, repr=False)

    @property
    def shown(self) -> str:
        return f"server {self.name!r}"


def parse_server(text: str, *, timeout: float = DEFAULT_TIMEOUT) -> ServerSpec:
    """``NAME=COMMAND ARGS`` or ``NAME=URL`` (http:// or https://) as a :class:`ServerSpec`."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise ValueError(f"--server {text!r}: expected NAME=COMMAND or NAME=URL")
    if value.startswith(("http://", "https://")):
        return ServerSpec(name, url=value, timeout=timeout)
    return ServerSpec(name, command=value, timeout=timeout)


def _pairs(values: Sequence[str], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in values:
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ValueError(f"{option} {text!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def server_specs(args: Any) -> list[ServerSpec]:
    """The --server options with their --server-timeout and --auth-env, checked."""
    import os

    if not args.server:
        raise ValueError("give at least one --server NAME=COMMAND or NAME=URL")
    specs = [parse_server(text, timeout=args.timeout) for text in args.server]
    names = {s.name for s in specs}
    timeouts = _pairs(args.server_timeout, "--server-timeout")
    auth = _pairs(args.auth_env, "--auth-env")
    envs = _env_pairs(getattr(args, "server_env", []))
    for option, given in (("--server-timeout", timeouts), ("--auth-env", auth), ("--server-env", envs)):
        unknown = sorted(set(given) - names)
        if unknown:
            raise ValueError(f"{option}: no --server named {', '.join(map(repr, unknown))}")
    out = []
    for spec in specs:
        timeout = spec.timeout
        if spec.name in timeouts:
            try:
                timeout = float(timeouts[spec.name])
            except ValueError:
                raise ValueError(f"--server-timeout {spec.name}: not a number of seconds") from None
            if not (math.isfinite(timeout) and timeout > 0):
                raise ValueError(f"--server-timeout {spec.name}: give a number of seconds above 0")
        headers: dict[str, str] = {}
        if spec.name in auth:
            var = auth[spec.name]
            if spec.url is None:
                raise ValueError(f"--auth-env {spec.name}: server {spec.name!r} is not a URL")
            from toolcast._runtime.mcp_http import authorization

            where = f"--auth-env {spec.name}={var}: the environment variable {var}"
            headers["Authorization"] = authorization(os.environ.get(var, ""), where)
        if spec.url is not None:
            from toolcast._runtime.mcp_http import check_credentials

            check_credentials(spec.url, headers)  # (user info in the URL would replace the token)
        env = _server_env(spec, envs.get(spec.name, []), getattr(args, "pass_environment", False))
        out.append(ServerSpec(spec.name, spec.command, spec.url, timeout, headers, env))
    return out


def _env_pairs(values: Sequence[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for text in values:
        name, sep, var = text.partition("=")
        if not sep or not name.strip() or not var.strip():
            raise ValueError(f"--server-env {text!r}: expected NAME=VAR")
        out.setdefault(name.strip(), []).append(var.strip())
    return out


def _server_env(spec: ServerSpec, names: Sequence[str], everything: bool) -> dict[str, str] | None:
    """What a stdio server gets of the proxy's environment: all of it (--pass-environment), the
    variables --server-env names, or none (None: the MCP SDK's default). Values are never shown."""
    import os

    if names and spec.url is not None:
        raise ValueError(f"--server-env {spec.name}: server {spec.name!r} is a URL, not a command")
    if spec.url is not None or not (names or everything):
        return None
    env = dict(os.environ) if everything else {}
    for var in names:
        if var not in os.environ:
            raise ValueError(f"--server-env {spec.name}={var}: the environment variable {var} is not set")
        env[var] = os.environ[var]
    return env


