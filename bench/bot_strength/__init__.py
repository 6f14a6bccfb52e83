"""How strong the bot levels are, three ways: `tournament` (one seat of a level against seats
of another, pure domain: the win share), `lineups` (one seat of each level at every table, pure
domain: who finishes above whom, and their ratings) and `rating_levels` (through the service's
matchmaker: do the ratings order the levels?). The two pure-domain ones play with games.py's one
loop. Each runs as `python -m bench NAME`."""
