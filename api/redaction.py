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


def redact_secrets(text: str) -> str:
    text = _QUERY.sub("?" + REDACTED, text)
    text = _HEADER.sub(r"\g<1>" + REDACTED, text)
    text = _NAMED.sub(r"\g<1>" + REDACTED, text)
    return _BEARER.sub(r"\g<1>" + REDACTED, text)
