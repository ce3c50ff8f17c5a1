#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    """Run administrative tasks. Settings that refuse to start (config/settings.py: DEBUG off
    with the development SECRET_KEY, say) say why in their one sentence, without a traceback."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 - reads the settings module, which may refuse
    except ImproperlyConfigured as refused:
        sys.exit(str(refused))
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
