"""Real processes (gunicorn, workers, Redis, Postgres) playing whole games while one of them is
killed or restarted: the scenarios of tests/chaos and tools/chaos.py."""
