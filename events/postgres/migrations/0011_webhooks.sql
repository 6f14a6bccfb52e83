-- Webhooks: where a player's notices are also sent (events/webhooks/). An endpoint's signing
-- secret is sealed (events/webhooks/signing.py): the server signs with it, so it cannot be a
-- hash, and it is never stored in the clear.
CREATE TABLE webhook_endpoints (
    id               uuid        PRIMARY KEY,
    player_id        uuid        NOT NULL REFERENCES players (id),
    url              text        NOT NULL,
    events           text[]      NOT NULL,  -- the notice kinds it is sent
    secret_sealed    text        NOT NULL,
    enabled          boolean     NOT NULL DEFAULT true,
    failures         integer     NOT NULL DEFAULT 0,  -- failed attempts in a row
    last_enqueued_at timestamptz,  -- spaces its deliveries (WEBHOOK_DELIVERIES_PER_SECOND)
    created_at       timestamptz NOT NULL DEFAULT now(),
    disabled_at      timestamptz
);
CREATE INDEX webhook_endpoints_of_player ON webhook_endpoints (player_id);

-- A notice (or a ping) to send to one endpoint: written in the transaction of the notice, so
-- none is lost; done when it was delivered (or, for a ping, tried once). An endpoint's open
-- deliveries go one at a time, oldest first (events/postgres/webhooks.py).
CREATE TABLE webhook_deliveries (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id   uuid        NOT NULL DEFAULT gen_random_uuid(),  -- its webhook-id
    endpoint_id  uuid        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    player_id    uuid        NOT NULL,
    kind         text        NOT NULL,  -- the notice's kind, or 'ping'
    notice       bigint,  -- the notice's number (notices.number); NULL for a ping
    created_at   timestamptz NOT NULL DEFAULT now(),
    due_at       timestamptz NOT NULL DEFAULT now(),  -- not sent before then (retries)
    failures     integer     NOT NULL DEFAULT 0,  -- its attempts that failed
    enqueued_at  timestamptz,  -- handed to RQ; NULL while it waits
    leased_until timestamptz,  -- a job is sending it; another may not until then
    done_at      timestamptz
);
CREATE INDEX webhook_deliveries_open ON webhook_deliveries (endpoint_id, id) WHERE done_at IS NULL;
CREATE INDEX webhook_deliveries_waiting ON webhook_deliveries (due_at)
    WHERE done_at IS NULL AND enqueued_at IS NULL;
CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (enqueued_at)
    WHERE done_at IS NULL AND enqueued_at IS NOT NULL;

-- Every attempt, for GET /me/webhooks/{id}/deliveries: never the secret or the signature.
CREATE TABLE webhook_attempts (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id  uuid        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    message_id   uuid        NOT NULL,
    kind         text        NOT NULL,
    notice       bigint,
    attempt      integer     NOT NULL,  -- 1 for a delivery's first
    at           timestamptz NOT NULL DEFAULT now(),
    latency_ms   integer     NOT NULL,
    status       smallint,  -- the answer's HTTP status; NULL when none came back
    error        text,
    answer       text        NOT NULL DEFAULT '',  -- at most 1 KB of the answer's body
    delivered    boolean     NOT NULL
);
CREATE INDEX webhook_attempts_of_endpoint ON webhook_attempts (endpoint_id, id);
