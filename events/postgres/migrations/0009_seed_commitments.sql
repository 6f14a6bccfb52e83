-- Seed commitments (POST /seed-commitments): the server's secret seed for a table not created
-- yet, handed out as its hash. A table created with one takes the row (DELETE ... RETURNING),
-- so a commitment serves one table only; one unused past `expires_at` is refused and purged.
CREATE TABLE seed_commitments (
    id          uuid        PRIMARY KEY,
    server_seed text        NOT NULL,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX seed_commitments_by_expiry ON seed_commitments (expires_at);
