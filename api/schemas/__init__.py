"""marshmallow schemas: the one source of input validation."""
