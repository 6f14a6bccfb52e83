"""Players: accounts and keys, a player's inbox of tables ("where is it my turn?") and its one
stream of notices for all its tables."""

from flask import Blueprint

bp = Blueprint("players", __name__)

from api.players import accounts, inbox, notice_stream, webhooks  # noqa: E402,F401  (they register their routes on bp)
