"""The Celery application (``celery -A config worker``).

Configuration comes from Django settings under the ``CELERY_`` namespace; tasks are
discovered in each installed app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
