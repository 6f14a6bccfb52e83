"""Players: accounts and keys, a player's inbox of tables ("where is it my turn?"), its one
stream of notices for all its tables, its webhooks, its matchmaking queue, and the ratings'
leaderboards."""

from flask import Blueprint

bp = Blueprint("players", __name__)

from api.players import (  # noqa: E402,F401  (they register their routes on bp)
    accounts,
    inbox,
    leaderboards,
    notice_stream,
    queue,
    webhooks,
)
