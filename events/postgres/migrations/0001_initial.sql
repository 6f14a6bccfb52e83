-- The event store: one row per game (the concurrency guard), the append-only event log,
-- and the tables written in the same transaction as the events (idempotency, outbox).

CREATE TABLE streams (
    game_id     uuid PRIMARY KEY,
    game_type   text NOT NULL,
    status      text NOT NULL DEFAULT 'waiting'
                CHECK (status IN ('waiting', 'active', 'finished')),
    -- Appenders lock this row, so writers of one game serialize and other games never wait.
    version     integer NOT NULL DEFAULT 0 CHECK (version >= 0),
    -- Hash of the event at `version` (64 zeros before the first), so an append reads no event.
    head_hash   text NOT NULL DEFAULT repeat('0', 64),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    archived_at timestamptz
);
-- The list endpoint: newest first, keyset pagination on (created_at, game_id).
CREATE INDEX streams_by_created ON streams (created_at, game_id);
CREATE INDEX streams_by_status_created ON streams (status, created_at, game_id);

CREATE TABLE events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Identity values commit out of order; global readers checkpoint on (tx_id, global_position).
    tx_id       xid8 NOT NULL DEFAULT pg_current_xact_id(),
    game_id     uuid NOT NULL REFERENCES streams (game_id),
    version     integer NOT NULL CHECK (version > 0),
    type        text NOT NULL,
    seat        smallint,
    data        jsonb NOT NULL,
    visible_to  smallint[],  -- NULL = public
    recorded_at timestamptz NOT NULL,
    prev_hash   text NOT NULL,
    hash        text NOT NULL,
    UNIQUE (game_id, version)
);
CREATE INDEX events_global_order ON events (tx_id, global_position);

CREATE TABLE snapshots (
    game_id  uuid PRIMARY KEY REFERENCES streams (game_id),
    version  integer NOT NULL,
    state    jsonb NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE idempotency (
    key_scope    text NOT NULL,
    key          text NOT NULL,
    request_hash text NOT NULL,
    status       text NOT NULL CHECK (status IN ('in_progress', 'done')),
    response     jsonb,
    status_code  integer,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key_scope, key)
);
CREATE INDEX idempotency_by_created ON idempotency (created_at);

CREATE TABLE outbox (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id     uuid NOT NULL,
    version     integer NOT NULL,
    kind        text NOT NULL,
    payload     jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    enqueued_at timestamptz,
    done_at     timestamptz,
    UNIQUE (game_id, version, kind)
);
CREATE INDEX outbox_pending ON outbox (id) WHERE enqueued_at IS NULL AND done_at IS NULL;
CREATE INDEX outbox_unfinished ON outbox (enqueued_at) WHERE enqueued_at IS NOT NULL AND done_at IS NULL;
