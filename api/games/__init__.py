"""The games resource, one blueprint: tables (create, join, list) and play (show, act, the
event log, replays)."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from api.games import play, tables  # noqa: E402,F401  (they register their routes on bp)
