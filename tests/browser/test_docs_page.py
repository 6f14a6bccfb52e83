"""`/docs` shows the whole API from this server alone: no CDN, nothing requested elsewhere (the
`open_page` fixture fails a test on any request off the server)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_the_docs_page_renders_every_operation_without_leaving_the_server(open_page, client):
    browsing = open_page("desktop")
    browsing.page.goto(f"{browsing.base_url}/docs")
    browsing.page.wait_for_selector(".swagger-ui .info .title")
    browsing.page.wait_for_selector(".opblock")
    spec_paths = client.get("/openapi.yaml").get_data(as_text=True).count("\n    get:")
    shown = browsing.page.locator(".opblock").count()
    assert shown >= spec_paths  # every operation listed (GETs alone are at least this many)
    assert "Cardroom" in (browsing.page.text_content(".swagger-ui .info .title") or "")
