"""The Postgres adapters of the event store: the store itself, its tables and migrations, the
unit of work on a pooled connection, and the reads the query side makes."""
