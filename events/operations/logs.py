"""Log lines of the API and the workers: text or one JSON object per line (LOG_FORMAT), each
carrying what it was logged for (request id, job id, game id, version) when known.

The context lives in a ContextVar: gevent gives every greenlet (every request of a gunicorn
worker) its own, and a worker runs one job at a time. Stdlib and python-json-logger only:
gunicorn's master process imports this through api/server/gunicorn_log.py.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
JSON_FIELDS = "%(levelname)s %(name)s %(message)s"  # then the context, then "time" (UTC, ISO)
JSON_NAMES = {"levelname": "level", "name": "logger"}
CONTEXT_FIELDS = ("request_id", "job_id", "game_id", "version")

_context: ContextVar[dict[str, Any] | None] = ContextVar("cardroom_log_context", default=None)


def bind(**fields: Any) -> None:
    """Adds fields to this request's or job's context (None values are left out)."""
    current = _context.get() or {}
    _context.set({**current, **{k: v for k, v in fields.items() if v is not None}})


def start(**fields: Any) -> None:
    """A new request's or job's context, in place of whatever the last one left."""
    _context.set({k: v for k, v in fields.items() if v is not None})


def clear() -> None:
    _context.set(None)


def context() -> dict[str, Any]:
    return dict(_context.get() or {})


class ContextFilter(logging.Filter):
    """Copies the context onto each record, as attributes the formatters read."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in (_context.get() or {}).items():
            if not hasattr(record, name):
                setattr(record, name, value)
        return True


class TextFormatter(logging.Formatter):
    """TEXT_FORMAT, then ` request_id=… game_id=… version=…` for the fields known."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # before any traceback
        text = super().formatMessage(record)
        known = [f"{name}={getattr(record, name)}" for name in CONTEXT_FIELDS
                 if getattr(record, name, None) is not None]  # fmt: skip
        return f"{text} {' '.join(known)}" if known else text


def formatter(log_format: str, text_format: str = TEXT_FORMAT) -> logging.Formatter:
    if log_format == "json":
        return JsonFormatter(JSON_FIELDS, rename_fields=JSON_NAMES, timestamp="time")
    return TextFormatter(text_format)


_CONTEXT = ContextFilter()


def dress(
    handler: logging.Handler, log_format: str, filters: Iterable[logging.Filter] = ()
) -> logging.Handler:
    """Gives a handler the format and the context (and any other filters, e.g. redaction)."""
    handler.setFormatter(formatter(log_format))
    for f in (*filters, _CONTEXT):  # redaction first: it renders the message
        handler.addFilter(f)  # once only, however often this runs
    return handler


class _OurHandler(logging.StreamHandler[TextIO]):
    """The handler `configure` adds, told apart from anyone else's when it runs again."""


def configure(level: str, log_format: str, filters: Iterable[logging.Filter] = ()) -> None:
    """The root logger writes to stderr in the chosen format. Like logging.basicConfig, it
    leaves a root logger that already has handlers of someone else's alone (pytest's)."""
    _record_only_what_lines_show()
    root = logging.getLogger()
    ours = [h for h in root.handlers if isinstance(h, _OurHandler)]
    if not ours and root.handlers:
        return
    handler = ours[0] if ours else _OurHandler(sys.stderr)
    dress(handler, log_format, filters)
    if not ours:
        root.addHandler(handler)
    root.setLevel(level)


def _record_only_what_lines_show() -> None:
    """No format here or in gunicorn's shows a line's source, thread or multiprocessing name, so
    records skip finding them: walking the caller's frames costs more than formatting the line
    (logging's own advice, "Optimization" in the logging HOWTO). The process id stays:
    gunicorn's lines show it."""
    logging._srcfile = None  # noqa: SLF001 (the documented switch)
    logging.logThreads = False
    logging.logMultiprocessing = False
