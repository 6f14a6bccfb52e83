"""The blueprint of the players resource: a module of its own, which the views import to register
their routes on it, so that none of them imports the package that imports them."""

from flask import Blueprint

bp = Blueprint("players", __name__)
