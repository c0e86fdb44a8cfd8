"""The official google-genai SDK's typed FunctionDeclaration as a check on emitted `parameters` declarations."""

from __future__ import annotations

from typing import Any


def sdk_round_trip(decl: dict) -> Any:
    """`decl` read by google-genai's FunctionDeclaration (extra fields forbidden) and written back
    in the API's camelCase: equal to `decl` when the SDK took every field as it is."""
    from google.genai import types

    parsed = types.FunctionDeclaration.model_validate(decl)
    return parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
