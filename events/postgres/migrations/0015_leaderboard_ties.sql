-- Leaderboard ties in a stated order (docs/players.md): among equal displays, the player with
-- more rated games first, then the lower player id. A page is still one range of one index.
CREATE INDEX ratings_leaderboard_ties ON ratings (game_type, display DESC, games DESC, player_id)
    WHERE NOT provisional;
DROP INDEX ratings_leaderboard;
