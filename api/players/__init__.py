"""Players: accounts and keys, a player's inbox of tables ("where is it my turn?"), its one
stream of notices for all its tables, its webhooks and its matchmaking queue."""

from flask import Blueprint

bp = Blueprint("players", __name__)

from api.players import accounts, inbox, notice_stream, queue, webhooks  # noqa: E402,F401  (they register their routes on bp)
