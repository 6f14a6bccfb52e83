"""The games resource, one blueprint: tables (create, join, list), play (show, act, the
event log, replays), audit/export, and seed commitments."""

from api.resources.games import actions, audit, seeds, tables  # noqa: F401  (they register their routes on bp)
from api.resources.games.blueprint import bp

__all__ = ["bp"]
