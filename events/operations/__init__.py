"""What the running service is set up by and reports: settings, logs, metrics, workers'
heartbeats."""
