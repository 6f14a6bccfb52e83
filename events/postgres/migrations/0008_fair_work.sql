-- Who created each table (a hash of the creating client's address, never the address), and the
-- worker time each creator's tables used lately: the relay hands work to the workers fairly
-- between creators (events/postgres/fair_work.py), so one client's tables cannot hold up
-- another's bots.
ALTER TABLE streams ADD COLUMN creator text NOT NULL DEFAULT '';

CREATE TABLE creator_usage (
    creator    text        PRIMARY KEY,
    seconds    float8      NOT NULL,  -- worker seconds, decaying (events/postgres/fair_work.py)
    updated_at timestamptz NOT NULL
);
