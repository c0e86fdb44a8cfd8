"""loads_bounded decodes with the C float parser and still refuses a number no float can hold."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import examples

from toolcast._runtime.json_limits import JsonLimitError, loads_bounded

_OVERFLOWING = ["1e400", "-1e400", "1E+309", "2e308", "1" * 250 + "e60", "1" * 310, "1" * 310 + ".5"]


@pytest.mark.parametrize("number", _OVERFLOWING)
@pytest.mark.parametrize(
    "template",
    ["{}", '{"a": {}}', '{"a": [1, {}]}', '[0.5, {}]', '{"a": {"b": [[{}]]}, "c": 1.5}'],
)
def test_an_overflowing_number_is_refused_wherever_it_stands(number, template):
    if number == "1" * 310:  # an integer: Python's int takes it, as json.loads does
        text = template.replace("{}", number, 1) if template != "{}" else number
        assert loads_bounded(text, max_depth=10, max_bytes=10_000) == json.loads(text)
        return
    text = number if template == "{}" else template.replace("{}", number, 1)
    with pytest.raises(JsonLimitError, match="out of range"):
        loads_bounded(text, max_depth=10, max_bytes=10_000)


def test_a_number_near_the_limits_decodes_as_json_loads_does():
    for text in ['{"a": 1.7976931348623157e308}', '{"a": -1e-400}', '[1e308, 4.9e-324]', "0.0"]:
        assert loads_bounded(text, max_depth=10, max_bytes=10_000) == json.loads(text)


_NUMBER = st.builds(
    lambda sign, digits, frac, exp: sign + digits + frac + exp,
    st.sampled_from(["", "-"]),
    st.from_regex(r"\A(0|[1-9][0-9]{0,320})\Z"),
    st.sampled_from(["", ".5", ".000123"]),
    st.builds(lambda e, s, d: e + s + d, st.sampled_from(["e", "E"]), st.sampled_from(["", "+", "-"]),
              st.from_regex(r"\A[0-9]{1,4}\Z")) | st.just(""),
)


@examples(300)
@given(st.lists(_NUMBER, min_size=1, max_size=4))
def test_numbers_decode_as_json_loads_or_are_refused_when_one_is_infinite(numbers):
    text = json.dumps({"k": None}).replace("null", "[" + ", ".join(numbers) + "]")
    expected = json.loads(text)["k"]
    if any(type(x) is float and math.isinf(x) for x in expected):
        with pytest.raises(JsonLimitError, match="out of range"):
            loads_bounded(text, max_depth=10, max_bytes=100_000)
    else:
        assert loads_bounded(text, max_depth=10, max_bytes=100_000) == {"k": expected}
