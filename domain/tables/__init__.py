"""The table around any game: seats, presence, the policy of what is due, views, snapshots,
notices, rated tables, self-play."""
