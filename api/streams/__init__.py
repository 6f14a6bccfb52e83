"""Event streams, one blueprint: a game's stream and a player's, and the tickets a browser opens
them with. The handshake (every check before the first byte) is each stream's own; what follows
it is the same for both (`serving.py`): served by the API worker, or held by Pushpin
(`grip.py`). What a process shares between its streams is in `hub.py`: the game feeds
(`feeds.py`) and the stream counts in Redis (`slots.py`)."""

from api.streams import game_stream, player_stream  # noqa: F401  (they register their routes on bp)
from api.streams.blueprint import bp

__all__ = ["bp"]
