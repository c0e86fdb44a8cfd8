"""References and definitions: collecting `$defs`, resolving local `$ref`s, compiling each definition once."""

from __future__ import annotations

from typing import Any

from toolcast.model import NullPath
from toolcast.walk.keywords import Keywords
from toolcast.walk.plans import _def_ref
from toolcast.walk.state import _Bucket
from toolcast.walk.values import MISSING, describe, ref_pointer


class References(Keywords):
    """Definitions and references (a class of Walk's line)."""

    # -- definitions and references -------------------------------------------------------
    def _collect_defs(self, root: dict) -> None:
        self.defs_raw, self.defs_src, self.defs_out, self.queue = {}, {}, {}, []
        defs = root.pop("$defs", None)
        legacy = root.pop("definitions", None)
        kw_defs = self.r.keywords.get("$defs")
        if defs is not None:
            if not isinstance(defs, dict):
                self.report("invalid-keyword-value", ("$defs",), keyword="$defs", value=describe(defs),
                          expected="an object of schemas")
            else:
                for name, d in defs.items():
                    self._empty_name(name, "$defs")
                    self.defs_raw[name], self.defs_src[name] = d, "$defs"
        if kw_defs is None or kw_defs[1] == "drop":  # pragma: no cover - a spec that drops $defs
            self.defs_raw.clear()
        if legacy is not None:
            if not isinstance(legacy, dict):
                self.report("invalid-keyword-value", ("definitions",), keyword="definitions",
                          value=describe(legacy), expected="an object of schemas")
                return
            self.report("legacy-definitions-keyword", ("definitions",))
            self.change("renamed-definitions-to-defs", ("definitions",))
            for name, d in legacy.items():
                self._empty_name(name, "definitions")
                if name in self.defs_raw:
                    self.report("conflicting-definitions-keywords", ("definitions", name), name=name)
                    continue
                self.defs_raw[name], self.defs_src[name] = d, "definitions"

    def _empty_name(self, name: Any, src: str) -> None:
        """Refuse a definition named by the empty string: its pointer `#/$defs/` is easily read as the
        root `#` (the walk's own name for the root is "" too), and no provider documents it."""
        if name == "":
            self.report("invalid-keyword-value", (src, name), keyword=src, value="`\"\"` (an empty definition name)",
                        expected="definition names that are not empty")

    def _target(self, ref: Any, sp: tuple) -> str | None:
        """The definition a local `$ref` names ("" for the root), or None after a refusal."""
        known = self.ref_names.get(ref) if type(ref) is str else None
        if known is not None:  # resolved before in this walk: the same answer, the same note
            name, note = known
            if note:
                self.trans.append((self.object_codes[4], "#", sp, note))
            return name
        if not isinstance(ref, str):
            self.report("invalid-keyword-value", sp, keyword="$ref", value=describe(ref), expected="a string")
            return None
        if ref == "#":
            self._ref_name(ref, "", "")
            self._root_target()
            return ""
        if not ref.startswith("#"):
            self.report("external-ref", sp, value=ref)
            return None
        # A fragment is a URI fragment: percent-decoded, then a JSON Pointer (values.ref_pointer).
        tokens = ref_pointer(ref)
        if tokens is not None and len(tokens) == 2 and tokens[0] in ("$defs", "definitions"):
            name = tokens[1]
            if name not in self.defs_raw:
                self.report("unresolvable-ref", sp, value=ref)
                return None
            note = f"({ref} -> {_def_ref(name)})" if tokens[0] == "definitions" else ""
            if note:
                self.change("rewrote-definitions-reference", sp, note)
            self._ref_name(ref, name, note)
            return name
        if tokens == ():
            self._ref_name(ref, "", "")
            self._root_target()
            return ""
        self.report("unsupported-ref-target", sp, value=ref)
        return None

    def _ref_name(self, ref: str, name: str, note: str) -> None:
        if type(self.ref_names) is not dict:
            self.ref_names = {}
        self.ref_names[ref] = (name, note)

    def _root_target(self) -> None:
        """A `$ref` names the root: where the root's `type: object` was inferred, it now applies
        there too (a value that is no object, which the original accepted there, is rejected),
        reported as type-inferred at the root, as it is for any node below."""
        if self.root_inferred is not None:
            self.report("type-inferred", (), keyword=f"`{self.root_inferred}` (and a `$ref` to `#`)", value="object")
            self.root_inferred = None  # (once)

    def _resolve_raw(self, ref: str, sp: tuple) -> Any:
        """The raw target of a `$ref` chain (for merging), or MISSING after a refusal."""
        seen = set()
        while True:
            name = self._target(ref, sp)
            if name is None:
                return MISSING
            if name == "":
                return self.root_raw
            target = self.defs_raw[name]
            if isinstance(target, dict) and set(target) == {"$ref"}:
                if name in seen:
                    self.report("unsatisfiable-schema", sp, value="a $ref cycle with no schema in it")
                    return MISSING
                seen.add(name)
                ref = target["$ref"]
                continue
            return target

    def _inline_root_ref(self, root: dict) -> dict | None:
        target = self._resolve_raw(root["$ref"], ("$ref",))
        if target is MISSING:
            return None
        if not isinstance(target, dict):
            self.report("root-schema-not-object", ("$ref",), value=describe(target))
            return None
        siblings = {k: v for k, v in root.items() if k != "$ref"}
        merged = self._merge([target, siblings], ("$ref",))
        if merged is None:
            return None
        self.change("merged-ref-siblings", ("$ref",), f"(the root is {root['$ref']})")
        return merged

    def _compile_defs(self) -> None:
        done: set[str] = set()
        i = 0
        while i < len(self.queue):
            name = self.queue[i]
            i += 1
            if name in done or name == "":
                continue
            done.add(name)
            bucket = self.bucket = _Bucket()
            self.buckets[name] = bucket
            sp = (self.defs_src[name], name)
            self.n_chars += len(name)
            raw = self.defs_raw[name]
            if raw is False:
                self.defs_out[name] = self.refuse("false-subschema-unrepresentable", sp)
                continue
            self.defs_out[name] = self.node(raw, sp, (), 1, 1)

    def _ref(self, ref: Any, out: dict, sp: tuple, ip: NullPath) -> dict:
        name = self._target(ref, sp + ("$ref",))
        if name is None:
            return {}
        self.bucket.refs.append((ip, name))
        if name == "":
            out["$ref"] = "#"
        else:
            if name not in self.defs_out:
                self.queue.append(name)
                self.defs_out[name] = None  # queued: compiled once, by _compile_defs
            out["$ref"] = _def_ref(name)
        return self._ordered(out) if len(out) > 1 else out
