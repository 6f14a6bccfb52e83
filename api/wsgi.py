"""The WSGI entry point gunicorn serves: `gunicorn api.wsgi:app`."""

from api import create_app

app = create_app()
