"""The canonical JSON every hash and signature is computed over is RFC 8785's, as docs/audit.md
promises: the project's `canonical_json` and the guide's independent verifier both give the bytes
of the reference implementation on every value an export can hold."""

from __future__ import annotations

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kit.codec import canonical_json
from tests.audit.independent_verifier import canonical

SAFE = 2**53 - 1  # RFC 8785 numbers are IEEE doubles: integers beyond this have no exact form

keys = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)  # our keys: ASCII names
texts = st.text(st.characters(exclude_categories=("Cs",)))  # anything but lone surrogates
scalars = st.none() | st.booleans() | st.integers(-SAFE, SAFE) | texts
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5)
)


@settings(max_examples=400)
@given(values)
def test_our_canonical_json_is_rfc_8785_on_the_values_of_our_domain(value):
    assert canonical_json(value).encode("utf-8") == rfc8785.dumps(value)


@settings(max_examples=400)
@given(values)
def test_the_guides_rules_written_out_give_rfc_8785_too(value):
    assert canonical(value).encode("utf-8") == rfc8785.dumps(value)


def test_each_control_character_has_the_one_escape_the_guide_gives():
    short = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}
    for code in range(0x20):
        escaped = '"' + short.get(code, f"\\u{code:04x}") + '"'
        assert canonical_json(chr(code)) == canonical(chr(code)) == escaped
    kept = '"\\/\x7f\u2028é🂡'  # escaped: only the quote and the backslash
    assert canonical_json(kept) == canonical(kept) == '"\\"\\\\/\x7f\u2028é🂡"'
