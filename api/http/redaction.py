"""Secrets out of log text: whatever a client sent may hold a seat token (`Authorization`,
`?access_token=`), a stream ticket (`?ticket=`), an invite or a creation's Idempotency-Key.

For log lines the app does not write itself (gunicorn's, which may quote a raw request line or
head); the app's own request log never writes a query string or a header at all. Stdlib only:
gunicorn's master process imports this.
"""

from __future__ import annotations

import re

REDACTED = "[redacted]"
SECRET_NAMES = ("access_token", "ticket", "invite", "token")
SECRET_HEADERS = ("authorization", "cookie", "idempotency-key")

# Text quoted as a Python repr shows a CR or LF as the two characters `\r` or `\n`.
_NOT_AN_ESCAPED_BREAK = r"(?!\\r|\\n)"
# A value: up to a space, a quote, a separator or a line break (real or escaped).
_VALUE = rf"(?:{_NOT_AN_ESCAPED_BREAK}[^\s'\"&,;}}])+"
# A header's value: up to the end of its line or a quote closing the repr.
_LINE = rf"(?:{_NOT_AN_ESCAPED_BREAK}[^\r\n'\"])+"

# Every query string, whatever its parameters are called (a percent-encoded name hides nothing).
_QUERY = re.compile(r"\?[^\s'\"]+")
# A secret header's whole value (`Authorization: Bearer ...`, `Idempotency-Key: ...`).
_HEADER = re.compile(rf"(?i)((?:{'|'.join(SECRET_HEADERS)})\s*:\s*){_LINE}")
# `name=value`, `name: value` or `"name": "value"` (a JSON body) for a secret's name.
_NAMED = re.compile(rf"(?i)((?:{'|'.join(SECRET_NAMES)})\"?\s*[=:]\s*\"?){_VALUE}")
# A bearer credential wherever it appears, even in a header line that lost its colon.
_BEARER = re.compile(rf"(?i)(bearer\s+){_VALUE}")
# What the patterns above need to match at all, in lowercase: a text with none of these holds
# nothing they would find.
_TRIGGERS = ("?", "bearer", *SECRET_HEADERS, *SECRET_NAMES)


def redact_secrets(text: str) -> str:
    if not _may_hold_a_secret(text):
        return text
    text = _QUERY.sub("?" + REDACTED, text)
    text = _HEADER.sub(r"\g<1>" + REDACTED, text)
    text = _NAMED.sub(r"\g<1>" + REDACTED, text)
    return _BEARER.sub(r"\g<1>" + REDACTED, text)


def _may_hold_a_secret(text: str) -> bool:
    """Whether the patterns must run: a few substring searches cost a fraction of the four
    case-insensitive scans, and most lines hold none of the triggers. Beyond ASCII, where
    str.lower() and case-insensitive patterns part ways (U+0130 is an `i` to a pattern, two
    characters once lowered), the patterns always run."""
    if not text.isascii():
        return True
    lowered = text.lower()
    return any(trigger in lowered for trigger in _TRIGGERS)
