"""The HTTP server's parts: gunicorn's configuration, worker and logger, the WSGI entry point."""
