"""Whatever JSON a client sends (any shape, any text, lone surrogates, huge or odd numbers),
the answer is a success or a problem+json error, never a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.play import auth, create_game, humans, tokens_of

LONE_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, codec=None)
ANY_TEXT = st.text(st.characters() | LONE_SURROGATES, max_size=12) | st.builds(
    str.__add__, st.text(max_size=4), st.text(LONE_SURROGATES, min_size=1, max_size=2)
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | ANY_TEXT
    | st.sampled_from(["trick_and_snipers", "human", "bot", "open", "random", "red", "play_card"])
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    [
        "type",
        "seats",
        "options",
        "name",
        "card",
        "cards",
        "count",
        "kind",
        "level",
        "suit",
        "rank",
        "expected_version",
        "deck",
    ]
)
OBJECTS = st.dictionaries(FIELDS | ANY_TEXT, ANY_JSON, max_size=6)
SEATS = st.lists(
    st.fixed_dictionaries({"kind": st.just("human"), "name": ANY_TEXT})
    | st.just({"kind": "bot", "level": "random"})
    | st.just({"kind": "open"}),
    min_size=3,
    max_size=5,
)
# Mostly well-formed, so that odd values reach the rules and the database, not just the schema.
CREATES = st.fixed_dictionaries(
    {"type": st.just("trick_and_snipers"), "seats": SEATS},
    optional={
        "options": st.fixed_dictionaries(
            {}, optional={"first_leader": st.integers(0, 4) | ANY_JSON}
        )
    },
)
CARDS = st.fixed_dictionaries({"suit": st.just("red") | ANY_TEXT, "rank": ANY_JSON})
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["play_card", "pass_cards"]) | ANY_TEXT},
    optional={
        "card": CARDS | ANY_JSON,
        "cards": st.lists(CARDS, max_size=5),
        "expected_version": ANY_JSON,
    },
)
JOINS = st.fixed_dictionaries({"name": ANY_TEXT | ANY_JSON})
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def encoded(value) -> bytes:
    # json.dumps keeps lone surrogates as \ud800 escapes, as a hostile client would send them.
    return json.dumps(value, allow_nan=True).encode()


def assert_handled(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json"


@FUZZ
@given(body=CREATES | OBJECTS | ANY_JSON)
def test_any_create_body_is_answered_without_a_server_error(client, body):
    assert_handled(client.post("/games", data=encoded(body), content_type="application/json"))


@FUZZ
@given(body=ACTIONS | OBJECTS | ANY_JSON)
def test_any_action_body_is_answered_without_a_server_error(client, body):
    game = create_game(client, "trick_and_snipers", humans(3))
    response = client.post(
        f"/games/{game['id']}/actions",
        data=encoded(body),
        content_type="application/json",
        headers={**auth(tokens_of(game)[0]), "Idempotency-Key": "fuzz"},
    )
    assert_handled(response)


@FUZZ
@given(body=JOINS | OBJECTS | ANY_JSON)
def test_any_join_body_is_answered_without_a_server_error(client, body):
    game = create_game(client, "trick_and_snipers", humans(1) + [{"kind": "open"}] * 2)
    response = client.post(
        f"/games/{game['id']}/seats/1/join", data=encoded(body), content_type="application/json"
    )
    assert_handled(response)
