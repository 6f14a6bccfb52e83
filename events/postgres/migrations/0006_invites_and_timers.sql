-- An open seat is taken only with its invite (a secret shown once, stored as a hash); a seat's
-- token can be replaced, so tokens are looked up by hash; and turn timers: when each waiting
-- seat's turn runs out. Timers are a cache the service keeps in the transaction that changes
-- them; they can always be computed again from the events (the version a seat has waited
-- since, its recorded_at, the table's turn_seconds).
CREATE TABLE seat_invites (
    game_id     uuid     NOT NULL,
    seat        smallint NOT NULL,
    invite_hash text     NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seat_tokens_by_hash ON seat_tokens (game_id, token_hash);

CREATE TABLE turn_timers (
    game_id       uuid        NOT NULL,
    seat          smallint    NOT NULL,
    since_version integer     NOT NULL,
    deadline      timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX turn_timers_by_deadline ON turn_timers (deadline);
