-- Seat tokens, stored only as SHA-256 hashes; a token acts for one seat of one game.
CREATE TABLE IF NOT EXISTS seat_tokens (
    game_id    uuid        NOT NULL,
    seat       smallint    NOT NULL,
    token_hash text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);
