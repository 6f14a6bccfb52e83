"""What every request passes through: bodies read first, authentication, limits, CORS, problems,
request logs, and what answers show a caller (rendering, cursors)."""
