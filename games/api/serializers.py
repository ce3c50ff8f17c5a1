"""Serializers for games resources."""

from rest_framework import serializers

from games.models import WorkerPing


class WorkerPingSerializer(serializers.ModelSerializer):
    """A ping and the process that answered it."""

    class Meta:
        model = WorkerPing
        fields = (
            "id",
            "status",
            "api_pid",
            "worker_pid",
            "worker_host",
            "created_at",
            "completed_at",
        )
        read_only_fields = fields
