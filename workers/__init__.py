"""RQ jobs (bot turns, automatic steps), the outbox relay and the stuck-game sweeper."""
