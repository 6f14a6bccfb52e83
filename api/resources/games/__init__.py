"""The games resource, one blueprint: tables (create, join, list), play (show, act, the
event log, replays), audit/export, and seed commitments."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from api.resources.games import actions, audit, seeds, tables  # noqa: E402,F401  (they register their routes on bp)
