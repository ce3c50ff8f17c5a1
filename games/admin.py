"""Admin registrations for games."""

from django.contrib import admin

from games.models import WorkerPing


@admin.register(WorkerPing)
class WorkerPingAdmin(admin.ModelAdmin):
    """Read-mostly view of worker pings."""

    list_display = ("id", "user", "status", "api_pid", "worker_pid", "worker_host", "created_at")
    list_filter = ("status",)
    readonly_fields = ("api_pid", "worker_pid", "worker_host", "created_at", "completed_at")
