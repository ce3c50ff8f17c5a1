"""Worker pings: ``POST /api/v1/pings/`` enqueues a job a Celery worker completes."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import User
from games import selectors, services
from games.api.serializers import WorkerPingSerializer
from games.models import WorkerPing


class WorkerPingFilter(filters.FilterSet):
    """Filter pings by status."""

    class Meta:
        model = WorkerPing
        fields = ("status",)


class WorkerPingViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[WorkerPing]
):
    """The signed-in user's worker pings."""

    serializer_class = WorkerPingSerializer
    filterset_class = WorkerPingFilter
    queryset = WorkerPing.objects.none()

    def get_queryset(self) -> QuerySet[WorkerPing]:
        user = self.request.user
        if not isinstance(user, User):
            return WorkerPing.objects.none()
        return selectors.worker_pings_for_user(user=user)

    @extend_schema(request=None, responses={201: WorkerPingSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create a ping; a worker completes it after the transaction commits."""
        assert isinstance(request.user, User)
        ping = services.ping_create(user=request.user)
        return Response(WorkerPingSerializer(ping).data, status=status.HTTP_201_CREATED)
