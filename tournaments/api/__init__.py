"""The tournament API (``/api/v1/tournaments/…``)."""
