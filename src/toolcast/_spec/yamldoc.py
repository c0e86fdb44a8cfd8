"""One parsed YAML spec file with the line of every node, and the error that names file:line."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class SpecError(Exception):
    """A spec problem, located as file:line and a path inside the document."""

    def __init__(self, file: Path | str, line: int | None, path: str, message: str):
        self.file, self.line, self.path, self.message = str(file), line, path, message
        where = f"{self.file}:{line}" if line else self.file
        super().__init__(f"{where}: {path or '(document)'}: {message}")


@dataclass
class Document:
    """One parsed YAML file with the line of every node, keyed by its path tuple."""

    file: Path
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, path: tuple) -> int | None:
        # Walk up to the nearest ancestor we know the line of.
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())

    def error(self, path: tuple, message: str) -> SpecError:
        return SpecError(self.file, self.line(path), fmt_path(path), message)


def fmt_path(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def load_yaml(file: Path) -> Document:
    """Parse YAML into plain data, rejecting duplicate keys, aliases and non-string keys."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(file, None, "", f"cannot read: {exc}") from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        raise SpecError(file, line, "", f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
    finally:
        loader.dispose()
    doc = Document(file, None)
    seen: set[int] = set()

    def build(n: yaml.Node, path: tuple) -> Any:
        doc.lines[path] = n.start_mark.line + 1
        if isinstance(n, (yaml.MappingNode, yaml.SequenceNode)):
            # An alias shares the node object; refusing shared nodes rules out alias bombs.
            if id(n) in seen:
                raise doc.error(path, "YAML aliases are not allowed in spec files")
            seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in n.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise doc.error(path, "mapping keys must be plain scalars")
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise doc.error(path, "YAML merge keys (<<) are not allowed in spec files")
                key = key_node.value
                if key in out:
                    doc.lines[path + (key,)] = key_node.start_mark.line + 1
                    raise doc.error(path + (key,), f"duplicate key {key!r}")
                out[key] = build(value_node, path + (key,))
                doc.lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, path + (i,)) for i, v in enumerate(n.value)]
        scalar_loader = yaml.SafeLoader("")
        try:
            return scalar_loader.construct_object(n)
        finally:
            scalar_loader.dispose()

    doc.data = build(node, ()) if node is not None else None
    return doc
