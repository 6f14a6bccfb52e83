"""Players: accounts and keys, a player's inbox of tables ("where is it my turn?"), its webhooks,
its matchmaking queue, and the ratings' leaderboards."""

from api.resources.players import (  # noqa: F401  (they register their routes on bp)
    accounts,
    inbox,
    leaderboards,
    queue,
    webhooks,
)
from api.resources.players.blueprint import bp

__all__ = ["bp"]
