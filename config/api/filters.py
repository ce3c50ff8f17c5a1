"""Query filters every app's lists share."""

from __future__ import annotations

from typing import Any

from django import forms
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from config.api.fields import MAX_ID


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(filters.NumberFilter):
    """An id in the query: a whole number; one the caller may not see, like one nobody uses,
    simply matches nothing (200, an empty page), so the answer never tells them apart
    (``docs/security.md``, API1). Not a ``ModelChoiceFilter``, which answers 400 for an id
    nobody uses and so tells it from a hidden one."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, min_value=1, max_value=MAX_ID, **kwargs)
