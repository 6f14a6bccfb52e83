"""Matchmaking: the queue players join and leave (queue.py), the matcher that forms tables from
it on the workers (matcher.py), and the one place it reads ratings from (ratings.py)."""
