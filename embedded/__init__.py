"""Embedded Postgres and Redis, and the launchers behind `make run` and `make test`."""

from embedded.services import Services, ensure_services, stop_embedded

__all__ = ["Services", "ensure_services", "stop_embedded"]
