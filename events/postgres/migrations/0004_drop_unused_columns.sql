-- Columns nothing ever wrote: the outbox's payload (work is typed by its kind alone) and the
-- streams' archived_at.
ALTER TABLE outbox DROP COLUMN payload;
ALTER TABLE streams DROP COLUMN archived_at;
