"""Admin registrations for clubs."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from clubs.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """The stock user admin plus ``display_name``."""

    fieldsets = (*(BaseUserAdmin.fieldsets or ()), ("Profile", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff")
