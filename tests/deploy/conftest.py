"""The deployment shapes' tests use the API tests' settings (this session's database, Redis
and queue)."""

from tests.api.conftest import settings

__all__ = ["settings"]
