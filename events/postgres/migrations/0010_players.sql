-- Players: an identity above seats. A player's key is a bearer secret shown once and stored
-- as a hash, like a seat token. Which seat a player holds at which table is in the game's
-- events (SeatInfo.player); player_seats is that, kept in the same transaction as the events
-- that seat or unseat a player, so a key finds its seat in the statement that locks the game.
CREATE TABLE players (
    id         uuid        PRIMARY KEY,
    name       text        NOT NULL,
    key_hash   text        NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- The number of the player's last notice. Taking the next one locks the row until the
    -- commit, so a player's notices commit in the order of their numbers, whatever tables
    -- they come from, and a stream resuming after number n misses none.
    notices    bigint      NOT NULL DEFAULT 0
);

CREATE TABLE player_seats (
    player_id          uuid     NOT NULL,
    game_id            uuid     NOT NULL,
    seat               smallint NOT NULL,
    -- The version of the player's last move there: has the game moved since? (GET /me/games)
    last_acted_version integer  NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, game_id),
    UNIQUE (game_id, seat)
);

-- Whose move a game waits for, kept by every append: a player's inbox finds "my turn" without
-- folding the game.
ALTER TABLE streams ADD COLUMN to_act smallint[] NOT NULL DEFAULT '{}';

-- What commits tell players (domain/notices.py), written in the commit's transaction and
-- numbered per player (players.notices): the player's stream reads them after the number it
-- last sent.
CREATE TABLE notices (
    player_id  uuid        NOT NULL,
    number     bigint      NOT NULL,
    kind       text        NOT NULL,
    game_id    uuid,
    version    integer,
    seat       smallint,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, number)
);
