"""How strong the bot levels are: `tournament` (a seat of one level against seats of another)
and `lineups` (one seat of each level) in the pure domain, playing games.py's one loop, and
`rating_levels` (through the service's matchmaker: do the ratings order the levels?)."""
