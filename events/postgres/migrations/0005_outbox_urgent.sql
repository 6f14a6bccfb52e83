-- Work a human is waiting for (a bot's turn at a table with people) is queued ahead of work at
-- tables of bots alone, so that a flood of bot-only tables cannot slow anyone's game.
ALTER TABLE outbox ADD COLUMN urgent boolean NOT NULL DEFAULT false;
