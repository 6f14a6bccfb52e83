"""Event streams, one blueprint: a game's stream and a player's, and the tickets a browser opens
them with. The handshake (every check before the first byte) is the app's; the events after it
come from the feeds (`feeds.py`, `live.py`) or from Pushpin (`grip.py`). Open streams are
counted in Redis (`slots.py`)."""

from flask import Blueprint

bp = Blueprint("streams", __name__)

from api.streams import game_stream, player_stream  # noqa: E402,F401  (they register their routes on bp)
