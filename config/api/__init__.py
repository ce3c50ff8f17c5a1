"""The API's shared parts: errors, schema, pagination, authentication, health probes, path
converters (registered here, before any URL module builds its paths)."""

from config.api import converters

converters.register()
