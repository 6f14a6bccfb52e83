-- Matchmaking (events/matchmaking/). The queue is no game state, so it is rows, not events:
-- one entry per waiting player (the primary key: a player waits in one queue at most). A
-- matcher locks the entries of a table it forms (FOR UPDATE SKIP LOCKED), and deletes them in
-- the transaction that creates the table, so an entry is seated once or left, never both.
CREATE TABLE queue_entries (
    id                 bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
    player_id          uuid        PRIMARY KEY REFERENCES players (id),
    game_type          text        NOT NULL,
    sizes              smallint[]  NOT NULL,  -- the table sizes the player accepts
    rated              boolean     NOT NULL,
    bots_after_seconds integer,  -- bots may fill its table after this long; NULL: never
    queued_at          timestamptz NOT NULL DEFAULT now()
);

-- What a player's last queue came to: the table it was seated at, written with the table.
-- Replaced when the player joins again; GET /me/queue shows it until then.
CREATE TABLE queue_matches (
    player_id          uuid        PRIMARY KEY REFERENCES players (id),
    game_id            uuid        NOT NULL,
    seat               smallint    NOT NULL,
    game_type          text        NOT NULL,
    sizes              smallint[]  NOT NULL,
    rated              boolean     NOT NULL,
    bots_after_seconds integer,
    queued_at          timestamptz NOT NULL,
    matched_at         timestamptz NOT NULL DEFAULT now()
);
