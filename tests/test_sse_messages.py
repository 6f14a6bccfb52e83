"""testing/sse.py's parser, which every SSE check of the suite reads bodies with: it reads
the format as the WHATWG spec writes it, not only as our server happens to send it."""

from __future__ import annotations

from testing.sse import messages


def test_a_message_is_its_fields_up_to_the_blank_line_and_a_comment_comes_alone():
    body = ': open\n\nid: 3\nevent: CardPlayed\ndata: {"version": 3}\n\n'

    parsed = list(messages(body.split("\n")))

    assert parsed == [
        {"comment": "open"},
        {"id": "3", "event": "CardPlayed", "data": '{"version": 3}'},
    ]


def test_data_lines_join_with_newlines_retry_is_a_number_and_the_space_is_optional():
    body = "retry:2000\ndata: first\ndata:second\n\n"

    assert list(messages(body.split("\n"))) == [{"retry": 2000, "data": "first\nsecond"}]


def test_a_message_without_data_or_without_its_blank_line_is_not_given():
    body = "id: 7\nevent: Heartbeat\n\ndata: cut short"

    assert list(messages(body.split("\n"))) == []


def test_lines_read_from_a_socket_keep_their_line_ends_and_still_parse():
    lines = ["id: 1\r\n", "data: x\r\n", "\r\n"]

    assert list(messages(lines)) == [{"id": "1", "data": "x"}]
