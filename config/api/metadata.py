"""What ``OPTIONS`` answers: the view's name and description and the media types it renders
and parses. DRF's default also describes the writable fields of PUT and POST ("actions") by
loading the object the path names and checking the caller's permissions on it; that failed
with a 500 on views whose lookup keyword is not ``pk`` (``OPTIONS …/hands/{number}/``) and
would tell a caller whether an object exists. The OpenAPI schema (``/api/v1/schema/``)
documents every body instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.metadata import SimpleMetadata

if TYPE_CHECKING:  # rest_framework.views imports this module while it loads
    from rest_framework.request import Request
    from rest_framework.views import APIView


class ApiMetadata(SimpleMetadata):
    def determine_metadata(self, request: Request, view: APIView) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
            "schema": request.build_absolute_uri("/api/v1/schema/"),
        }
