"""Players: accounts and keys, a player's inbox of tables ("where is it my turn?"), its webhooks,
its matchmaking queue, and the ratings' leaderboards."""

from flask import Blueprint

bp = Blueprint("players", __name__)

from api.resources.players import (  # noqa: E402,F401  (they register their routes on bp)
    accounts,
    inbox,
    leaderboards,
    queue,
    webhooks,
)
