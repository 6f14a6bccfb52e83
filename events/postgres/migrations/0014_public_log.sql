-- The public log of finished games (events/public_log.py): an RFC 9162 Merkle tree whose
-- leaves are finished games' final heads, its stored perfect subtrees, its signed checkpoints.
-- The three tables are append-only: a trigger refuses any UPDATE, DELETE or TRUNCATE.

CREATE TABLE log_leaves (
    index       bigint      PRIMARY KEY CHECK (index >= 0),
    game_id     uuid        NOT NULL UNIQUE,  -- a game is in the log once
    leaf        bytea       NOT NULL,         -- the canonical JSON of events/audit/log_format.py
    appended_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Every complete perfect subtree, by (level, index): it covers the leaves
-- [index * 2^level, (index + 1) * 2^level); level 0 holds the leaf hashes. An append and each
-- proof read O(log n) of them (events/audit/merkle.py).
CREATE TABLE log_subtrees (
    level smallint NOT NULL CHECK (level BETWEEN 0 AND 62),
    index bigint   NOT NULL CHECK (index >= 0),
    hash  bytea    NOT NULL CHECK (octet_length(hash) = 32),
    PRIMARY KEY (level, index)
);

-- One signed note (C2SP) per tree size the log has had: the empty tree, then each batch.
CREATE TABLE log_checkpoints (
    size      bigint      PRIMARY KEY CHECK (size >= 0),
    note      bytea       NOT NULL,
    signed_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE FUNCTION log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the public log is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER log_leaves_append_only BEFORE UPDATE OR DELETE ON log_leaves
    FOR EACH ROW EXECUTE FUNCTION log_refuse_change();
CREATE TRIGGER log_leaves_never_truncated BEFORE TRUNCATE ON log_leaves
    FOR EACH STATEMENT EXECUTE FUNCTION log_refuse_change();
CREATE TRIGGER log_subtrees_append_only BEFORE UPDATE OR DELETE ON log_subtrees
    FOR EACH ROW EXECUTE FUNCTION log_refuse_change();
CREATE TRIGGER log_subtrees_never_truncated BEFORE TRUNCATE ON log_subtrees
    FOR EACH STATEMENT EXECUTE FUNCTION log_refuse_change();
CREATE TRIGGER log_checkpoints_append_only BEFORE UPDATE OR DELETE ON log_checkpoints
    FOR EACH ROW EXECUTE FUNCTION log_refuse_change();
CREATE TRIGGER log_checkpoints_never_truncated BEFORE TRUNCATE ON log_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION log_refuse_change();

-- The finished games the log has yet to take, queued in the very transaction that finishes
-- the game (so a crash between the end and the append loses none), taken off in the
-- transaction that appends them. Oldest first: `id` follows the order the games ended.
CREATE TABLE log_pending (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id uuid   NOT NULL UNIQUE
);

CREATE FUNCTION log_queue_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO log_pending (game_id) VALUES (NEW.game_id) ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER streams_finished_to_log AFTER UPDATE OF status ON streams
    FOR EACH ROW WHEN (NEW.status = 'finished' AND OLD.status <> 'finished')
    EXECUTE FUNCTION log_queue_finished();
CREATE TRIGGER streams_created_finished_to_log AFTER INSERT ON streams
    FOR EACH ROW WHEN (NEW.status = 'finished')
    EXECUTE FUNCTION log_queue_finished();

-- The games that finished before this migration, in the order they ended.
INSERT INTO log_pending (game_id)
    SELECT game_id FROM streams WHERE status = 'finished' ORDER BY updated_at, game_id;
