"""Containers: objects (closed; every property required, or optional ones kept as the rules say), arrays, anyOf branches and schema-valued slots."""

from __future__ import annotations

from gc import disable as gc_disable
from gc import isenabled as gc_isenabled
from typing import Any

from toolcast.model import ITEMS, OPTIONAL_PAIR, NullPath
from toolcast.walk.combinators import Combinators
from toolcast.walk.plans import _NOT_PLAIN_NULLABLE, NodePlan
from toolcast.walk.semantics import allows_null
from toolcast.walk.unlisted import unlisted_object_rules
from toolcast.walk.values import _NON_NULL_LEAF_TYPES, MISSING, NEST_GUARD

# Properties met on the way down past which a walk pauses the cycle collector until it ends (see
# without_cycle_gc): a schema can be large below a small root, where compile_tool does not look.
PAUSE_GC_AFTER_PROPERTIES = 256
_plainly_nullable = _NOT_PLAIN_NULLABLE.isdisjoint  # (bound once: compiled, a call makes no method lookup)


class Containers(Combinators):
    """Actions on objects, arrays and anyOf (a class of Walk's line)."""

    def _planned(self, s: dict, np: NodePlan, t: str, sp: tuple, ip: NullPath, depth: int, nest: int,
                 root: bool) -> dict | None:
        """node() for an object or array (`t`) of a planned key shape (see Plans._node_plan); None,
        with nothing recorded, when a value needs node()'s reading of every keyword."""
        # The plan's copy checks the values (the structural ones too) as node() checks them.
        out = (np.object if t == "object" else np.array)(s, {"type": t})
        if out is None:
            return None
        if np.container_steps:
            self._record_steps(s, np.container_steps, sp)
        self._container(s, out, sp, ip, depth, nest, root, t == "object", t == "array")
        return out

    def _descend_slot(self, k: str, v: Any, slot: tuple, sp: tuple, ip: NullPath, depth: int, nest: int) -> Any:
        """Generic descent for a kept schema-valued keyword that has no structural rule."""
        kind, step = slot
        self.branched = True
        d = 1 if step == "reset" else depth + step
        if kind == "map":
            return {n: self.node(x, sp + (k, n), ip, d, nest + 1) for n, x in v.items()}
        if kind == "list" or (kind == "schema-or-list" and isinstance(v, list)):
            return [self.node(x, sp + (k, i), ip, d, nest + 1) for i, x in enumerate(v)]
        return self.node(v, sp + (k,), ip, d, nest + 1)

    def _any_of(self, branches: list, sp: tuple, ip: NullPath, depth: int, nest: int) -> list:
        self.branched = True
        out = []
        for i, b in enumerate(branches):
            if b is False:
                self.report("boolean-subschema", sp + (i,), value="false")
                self.change("removed-false-subschema", sp + (i,))
                continue
            out.append(self.node(b, sp + (i,), ip, depth, nest + 1))
        return out

    def _object(self, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool) -> None:
        """The object closed, every property required (an optional one made nullable, with its null
        path) and walked."""
        props = s.get("properties")
        if not isinstance(props, dict):
            props = {}
        elif not self.gc_paused:
            n = self.entered_props = self.entered_props + len(props)
            if n > PAUSE_GC_AFTER_PROPERTIES and gc_isenabled():
                gc_disable()
                self.gc_paused = True
        req = (self._object_rules(s, props, sp, root) if not self.objects_unlisted
               else unlisted_object_rules(self, s, props, sp, root))
        if req is None:
            return
        if self.key_re is not None:
            self._property_keys(props, sp)
        # Under policy optional_properties `allowed`, an optional property stays optional: no
        # null, no null path, and `required` keeps the author's list.
        allowed = self.optional_allowed
        out_props: dict = {}
        plans = self.node_plans
        leaf_ok = nest < NEST_GUARD  # (deeper, node() refuses the property)
        for name, sub in props.items():
            optional = name not in req and not allowed
            np = None
            if leaf_ok and type(sub) is dict:
                # node()'s first case, a scalar leaf by its plan, without node()'s dispatch: the
                # property's place is built only where something is recorded there.
                np = plans.get(keys := tuple(sub))
                if np is None:
                    np = self._node_plan(keys)
                if (np.leaf is not None and type(t := sub["type"]) is str and t in _NON_NULL_LEAF_TYPES
                        and (child := np.leaf(sub, {"type": t})) is not None):
                    psp = None
                    if optional:  # (a plain type: null is new here)
                        psp = sp + ("properties", name)
                        self._optional(name, psp, ip + (name,), False)
                        if np.own_null:
                            child = self._nullable(child, psp)
                        else:
                            child["type"] = [t, "null"]
                    if np.leaf_steps:
                        self._record_steps(sub, np.leaf_steps, psp or sp + ("properties", name))
                    out_props[name] = child
                    continue
            child = self._property(name, sub, optional, sp, ip, depth, nest, np)
            if child is not MISSING:
                out_props[name] = child
        self.n_props += len(out_props)
        self.n_chars += sum(map(len, out_props))
        out["properties"] = out_props
        out["required"] = [n for n in out_props if n in req] if allowed else list(out_props)
        if not self.objects_unlisted or (self.objects_keep_closed and s.get("additionalProperties") is False):
            out["additionalProperties"] = False

    def _property_keys(self, props: dict, sp: tuple) -> None:
        """Refuse each property whose name the rules' property_keys pattern does not match."""
        key_re = self.key_re
        for name in props:
            if not (type(name) is str and key_re.fullmatch(name)):
                # (diag, not report: the message's `pattern` placeholder would clash with report's)
                self.diag(self.codes["property-key-invalid"], sp + ("properties", name), name=name,
                          pattern=self.r.property_key_pattern)

    def _optional_null(self, name: str, psp: tuple, omit: bool) -> None:
        """What an optional property that already accepts null records: omission is gone, so either
        the handler receives the model's null (optional_null "value") or that null is stripped like
        an omission and an explicit null is lost (optional_null "omit", a lossy change the caller
        chose)."""
        if omit:
            self.report("explicit-null-stripped", psp, name=name)
            self.change("stripped-explicit-null", psp)
        else:
            self.record("optional-null-sent", psp, (("name", name),))

    def _object_rules(self, s: dict, props: dict, sp: tuple, root: bool) -> Any:
        """What closing the object records (by its `additionalProperties`), and `required` names it
        does not declare; the names it requires, or None when it cannot be closed (an open map or a
        free-form object, refused)."""
        ap = s.get("additionalProperties", MISSING)
        required = s.get("required")
        if isinstance(required, list) and required:
            try:
                req = set(required)
            except TypeError:  # an unhashable entry (reported as an invalid value already)
                req = {x for x in required if isinstance(x, str)}
        else:
            required, req = (), frozenset()
        if not props:
            if ap is MISSING and root:
                self.report("empty-parameters", sp)
                self.change("closed-empty-parameters", sp)
            elif ap is False:
                if "properties" not in s:
                    self.change("added-empty-properties", sp)
            elif isinstance(ap, dict) and ap:
                self.report("open-map", sp + ("additionalProperties",))
                return None
            else:
                self.report("free-form-object", sp)
                return None
        elif ap is MISSING:
            self.diags.append((self.object_codes[2], "#", sp, ()))
            self.trans.append((self.object_codes[3], "#", sp, ""))
            if self.object_flags[3]:
                self.refusals += 1
        elif ap is True or ap == {}:
            self.report("additional-properties-true", sp + ("additionalProperties",))
            self.report("extra-properties-no-longer-accepted", sp + ("additionalProperties",))
            self.change("closed-open-object", sp + ("additionalProperties",))
        elif isinstance(ap, dict):
            self.report("additional-properties-schema", sp + ("additionalProperties",))
            self.change("dropped-additional-properties-schema", sp + ("additionalProperties",))
        if req and not req <= props.keys():
            for name in required:
                # Entries that are not strings were reported as invalid values already.
                if isinstance(name, str) and name not in props:
                    self.report("required-property-undefined", sp + ("required",), name=name)
        return req

    def _property(self, name: str, sub: Any, optional: bool, sp: tuple, ip: NullPath, depth: int, nest: int,
                  plan: NodePlan | None = None) -> Any:
        """The compiled property `name` of the object at `sp` (MISSING when it is left out), after
        its own findings and null path; `plan` is that of its key shape, when looked up already."""
        psp = sp + ("properties", name)
        if sub is False:
            self.report("boolean-subschema", psp, value="false")
            if not optional:
                self.report("unsatisfiable-schema", psp, value=f"property {name!r} is required but its schema is false")
            else:
                self.change("removed-false-subschema", psp)
            return MISSING
        pip = ip + (name,)
        # Decide before descending, so findings and null paths come parent first.
        d = sub if type(sub) is dict else None  # (compiled, read as a dict)
        if d is not None and type(t := d.get("type")) is str and t != "null" and d.get("nullable") is not True:
            original_null = False  # allows_null's first test, inline: one plain type
        elif (d is not None and len(d) == 1 and type(ref := d.get("$ref")) is str
              and (known := self.ref_nulls.get(ref)) is not None):
            original_null = known  # a bare $ref: allows_null's answer for its target, remembered
        else:
            original_null = allows_null(sub, self)
        if optional:
            self._optional(name, psp, pip, original_null)
        elif original_null:
            self.bucket.legit.append(pip)
        child = self.node(sub, psp, pip, depth + 1, nest + 1, False, plan)
        if optional and not original_null:
            t = child.get("type")
            if type(t) is str and t != "null" and _plainly_nullable(child):
                child["type"] = [t, "null"]  # _with_null_own's common case, inline
            else:
                child = self._nullable(child, psp)
        return child

    def _optional(self, name: str, psp: tuple, pip: NullPath, original_null: bool) -> None:
        """What an optional property records before its schema is walked: its diagnostics and its
        null path (a legit one when null was a value already, kept as the handler receives it)."""
        flags = self.object_flags  # (its diagnostic refuses, its null warning refuses, ...)
        if original_null:
            omit = self.optional_null == "omit"
            (self.bucket.nulls if omit else self.bucket.legit).append(pip)
            self.diags.append((self.object_codes[0], "#", psp, (("name", name),)))
            self._optional_null(name, psp, omit)
            if flags[0]:
                self.refusals += 1
        else:
            self.bucket.nulls.append(pip)
            self.diags.append((OPTIONAL_PAIR, "#", psp, ()))  # both diagnostics, in one record
            self.trans.append((self.object_codes[1], "#", psp, ""))
            if flags[0] or flags[1]:
                self.refusals += flags[0] + flags[1]

    def _array(self, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int) -> None:
        items = s.get("items", MISSING)
        if items is MISSING:
            self.report("array-missing-items", sp)
            return
        if isinstance(items, list):
            self.report("tuple-items", sp + ("items",))
            return
        if items is False:
            self.report("false-subschema-unrepresentable", sp + ("items",))
            return
        out["items"] = self.node(items, sp + ("items",), ip + (ITEMS,), depth + 1, nest + 1)
