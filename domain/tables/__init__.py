"""The table around any game: seats, presence, the policy of what is due, API actions made
commands, fair deals, views, snapshots, notices, rated tables, self-play."""
