"""Default pagination for every list endpoint."""

from typing import Any

from rest_framework.pagination import PageNumberPagination


class DefaultPagination(PageNumberPagination):
    """Page-number pagination: ``?page=2&page_size=100`` (at most 200 per page)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's page schema, with the example values of a first and only page: a list's
        documented example (one item) is shown as such a page."""
        page: dict[str, Any] = super().get_paginated_response_schema(schema)
        properties = page["properties"]
        properties["count"]["example"] = 1
        properties["next"]["example"] = None
        properties["previous"]["example"] = None
        return page
