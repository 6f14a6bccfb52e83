-- The hash chain carries a format (events/chain.py). Games already stored keep format 1, and
-- publish no head before they end; new games use format 2, where every non-public event
-- hashes a secret nonce. The stream row also keeps the server's signature of its head.
ALTER TABLE streams ADD COLUMN chain_format smallint NOT NULL DEFAULT 1
    CHECK (chain_format IN (1, 2));
ALTER TABLE streams ALTER COLUMN chain_format SET DEFAULT 2;
ALTER TABLE streams ADD COLUMN head_signature text;
ALTER TABLE events ADD COLUMN nonce text;
