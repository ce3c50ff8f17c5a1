"""The API's documentation pages load nothing from elsewhere: no CDN, no web fonts."""

from __future__ import annotations

import re

import pytest
from django.test import Client

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/redoc/", "/api/v1/docs/"])
def test_the_docs_pages_load_no_font_or_asset_from_another_host(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "fonts.googleapis.com" not in html and "fonts.gstatic.com" not in html
    assert not EXTERNAL.search(html), EXTERNAL.search(html)


@pytest.mark.django_db
def test_the_redoc_page_uses_the_system_fonts_and_the_local_script(client: Client) -> None:
    html = client.get("/api/v1/redoc/").content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in html
    assert "system-ui" in html
    assert "Redoc.init(" in html
