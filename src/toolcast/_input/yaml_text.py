"""YAML read as JSON values only: a PyYAML SafeLoader that refuses what JSON has not, each with its mark."""

from __future__ import annotations

import re
from typing import Any, ClassVar


class YamlProblem(Exception):
    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message, self.mark = message, mark


_YAML_LOADER: Any = None
_RETYPED = {f"tag:yaml.org,2002:{t}" for t in ("bool", "int", "float", "timestamp")}
# YAML 1.2's core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution): (tag, pattern, first characters).
_CORE_SCHEMA = (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                                r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
)
_MERGE_TAG = "tag:yaml.org,2002:merge"


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def yaml_loader() -> Any:
    """A SafeLoader that builds JSON values only (made once, on the first YAML file)."""
    global _YAML_LOADER
    if _YAML_LOADER is not None:
        return _YAML_LOADER
    import yaml

    class JsonLoader(yaml.SafeLoader):
        # Plain scalars are typed by YAML 1.2's core schema, not PyYAML's YAML 1.1 rules: `yes`,
        # `no`, `on`, `NO`, `12:30:00`, `1_000` and an unquoted 2024-01-01 stay the strings their
        # author wrote (JSON has no dates, and 1.1's booleans and base-60 numbers are gone in 1.2).
        yaml_implicit_resolvers: ClassVar[dict] = {
            first: [(tag, rx) for tag, rx in resolvers if tag not in _RETYPED]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }

        def compose_node(self, parent: Any, index: Any) -> Any:
            # Aliases could expand exponentially when walked; tool files have no need of them.
            if self.check_event(yaml.AliasEvent):
                raise YamlProblem("YAML aliases (*name) are not supported in tool files", self.peek_event().start_mark)
            return super().compose_node(parent, index)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen = set()
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG:
                    raise YamlProblem("YAML merge keys (<<) are not supported in tool files", key_node.start_mark)
                key = self.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    raise YamlProblem(f"invalid YAML: mapping key {key!r} is not a string (JSON keys are strings; quote it)", key_node.start_mark)
                if key in seen:
                    raise YamlProblem(f"invalid YAML: duplicate key {key!r}", key_node.start_mark)
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

        def construct_yaml_int(self, node: Any) -> Any:
            # (1.2: 010 is ten, not 1.1's octal eight; 0o10 and 0x10 are octal and hex)
            text = str(self.construct_scalar(node))
            try:
                digits = text.lstrip("+-")
                base = 8 if digits.startswith("0o") else 16 if digits.startswith("0x") else 10
                value = int(digits[2:] if base != 10 else digits, base)
            except ValueError:
                raise YamlProblem(f"invalid YAML: {text!r} is not an integer", node.start_mark) from None
            return -value if text.startswith("-") else value

        def construct_yaml_float(self, node: Any) -> Any:
            value = super().construct_yaml_float(node)
            if value != value or value in (float("inf"), float("-inf")):
                raise YamlProblem("invalid YAML: NaN and infinite numbers are not JSON values", node.start_mark)
            return value

        def not_json(self, node: Any) -> Any:
            raise YamlProblem(f"invalid YAML: the tag {_short_tag(node.tag)} makes a value JSON does not have (tool files hold JSON values only)", node.start_mark)

    for tag, pattern, first in _CORE_SCHEMA:  # (in this order: 10 is an int before it is a float)
        JsonLoader.add_implicit_resolver(tag, re.compile(pattern), list(first))
    JsonLoader.add_constructor("tag:yaml.org,2002:int", JsonLoader.construct_yaml_int)
    JsonLoader.add_constructor("tag:yaml.org,2002:float", JsonLoader.construct_yaml_float)
    for tag in ("timestamp", "binary", "set", "omap", "pairs"):
        JsonLoader.add_constructor(f"tag:yaml.org,2002:{tag}", JsonLoader.not_json)
    JsonLoader.add_constructor(None, JsonLoader.not_json)
    _YAML_LOADER = JsonLoader
    return JsonLoader
