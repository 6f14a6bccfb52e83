-- Ratings: a projection of the rated games' GameEnded events (events/ratings.py), one rating
-- per player per game type, rebuildable from the log (python -m workers.ratings --rebuild).

-- Each rated bot level is a player of its own, so it is rated like anyone and anchors the
-- scale (domain/rated_tables.BOT_RATERS holds the same ids). It has no key: its key_hash is no
-- SHA-256, so no key ever matches it.
ALTER TABLE players ADD COLUMN bot_level text UNIQUE;
INSERT INTO players (id, name, key_hash, bot_level) VALUES
    ('00000000-0000-4000-8000-00000000b0a1', 'Random bot', 'bot:random', 'random'),
    ('00000000-0000-4000-8000-00000000b0a2', 'Basic bot', 'bot:basic', 'basic'),
    ('00000000-0000-4000-8000-00000000b0a3', 'Strong bot', 'bot:strong', 'strong');

CREATE TABLE ratings (
    player_id   uuid        NOT NULL REFERENCES players (id),
    game_type   text        NOT NULL,
    mu          float8      NOT NULL,  -- the model's estimate of the player's skill
    sigma       float8      NOT NULL,  -- its uncertainty
    games       integer     NOT NULL,  -- rated games of this type taken into account
    display     float8      NOT NULL,  -- mu - 3 sigma: what a leaderboard orders by
    provisional boolean     NOT NULL,  -- too few games to be on a leaderboard
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, game_type)
);
-- A leaderboard page is one range of this index, whatever its depth.
CREATE INDEX ratings_leaderboard ON ratings (game_type, display DESC, player_id DESC)
    WHERE NOT provisional;

-- The rated games the ratings took, numbered in the order they took them: ratings depend on
-- that order, and the rebuild takes the games in it again. A game's number is drawn while
-- its raters' rows are locked, so two games sharing a rater are numbered in the order they
-- were applied (games sharing none do not depend on each other's order).
CREATE TABLE rated_games (
    game_id   uuid        PRIMARY KEY,
    game_type text        NOT NULL,
    seq       bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
    rated_at  timestamptz NOT NULL DEFAULT clock_timestamp()  -- as the ratings were written
);
