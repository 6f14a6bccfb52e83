"""gunicorn's logger (`logger_class` in api/server/gunicorn_conf.py), with every line it writes,
error log and access log alike, passed through `redact_secrets` first; with LOG_FORMAT=json, written
as one JSON object per line like the app's own (events/operations/logs.py), with the request's
context.

gunicorn quotes what the client sent in a few lines of its own: the raw head of a request cut
short (at DEBUG), the method and target of a request that failed (with its query string, which
may hold `?access_token=`), and, when an access log is turned on, every request line. The
master process imports this module, so it imports only logging, gunicorn's own logger and the
stdlib-only modules below.
"""

from __future__ import annotations

import logging
from typing import Any

from gunicorn.glogging import Logger

from api.http.redaction import redact_secrets
from events.operations import logs
from events.operations.settings import load_settings

_TRACEBACKS = logging.Formatter()


class RedactSecrets(logging.Filter):
    """Render each record's message (and traceback) once, redacted, in place of the original."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact_secrets(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = _TRACEBACKS.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_secrets(record.exc_text)
            record.exc_info = None  # or a formatter would render the traceback again, unredacted
        if record.stack_info:
            record.stack_info = redact_secrets(record.stack_info)
        return True


REDACT = RedactSecrets()


class RedactingLogger(Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        # addFilter adds a filter once, however often a configuration reload runs setup.
        self.error_log.addFilter(REDACT)
        self.access_log.addFilter(REDACT)
        if load_settings().log_format == "json":
            for handler in (*self.error_log.handlers, *self.access_log.handlers):
                logs.dress(handler, "json")
