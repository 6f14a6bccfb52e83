-- A finished game's audit never changes: it is computed once and kept here, for the version and
-- chain head it covers, the domain code that re-decided it and the key that checked its head.
-- A cache: any row can be deleted, and the next audit computes it again from the events.
CREATE TABLE audit_reports (
    game_id    uuid        PRIMARY KEY,
    version    integer     NOT NULL,
    head_hash  text        NOT NULL,
    code       text        NOT NULL,
    key_id     text        NOT NULL,
    report     jsonb       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
