"""YAML read as JSON values only: a PyYAML SafeLoader that refuses what JSON has not, each with its mark."""

from __future__ import annotations

from typing import Any, ClassVar


class YamlProblem(Exception):
    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message, self.mark = message, mark


_YAML_LOADER: Any = None
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
        # An unquoted 2024-01-01 stays the string its author wrote: JSON has no dates.
        yaml_implicit_resolvers: ClassVar[dict] = {
            first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
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

        def construct_yaml_float(self, node: Any) -> Any:
            value = super().construct_yaml_float(node)
            if value != value or value in (float("inf"), float("-inf")):
                raise YamlProblem("invalid YAML: NaN and infinite numbers are not JSON values", node.start_mark)
            return value

        def not_json(self, node: Any) -> Any:
            raise YamlProblem(f"invalid YAML: the tag {_short_tag(node.tag)} makes a value JSON does not have (tool files hold JSON values only)", node.start_mark)

    JsonLoader.add_constructor("tag:yaml.org,2002:float", JsonLoader.construct_yaml_float)
    for tag in ("timestamp", "binary", "set", "omap", "pairs"):
        JsonLoader.add_constructor(f"tag:yaml.org,2002:{tag}", JsonLoader.not_json)
    JsonLoader.add_constructor(None, JsonLoader.not_json)
    _YAML_LOADER = JsonLoader
    return JsonLoader
