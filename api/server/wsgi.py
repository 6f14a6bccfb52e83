"""The WSGI entry point gunicorn serves: `gunicorn api.server.wsgi:app`."""

import gunicorn.http.wsgi

from api import create_app

# gunicorn names itself and its version in a `Server` header; say only what this is.
gunicorn.http.wsgi.SERVER = "cardroom"

app = create_app()
