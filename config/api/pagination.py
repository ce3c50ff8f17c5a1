"""Default pagination for every list endpoint."""

from rest_framework.pagination import PageNumberPagination


class DefaultPagination(PageNumberPagination):
    """Page-number pagination: ``?page=2&page_size=100`` (at most 200 per page)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
