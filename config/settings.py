"""Django settings: one module, every deployment choice read from the environment.

Every variable read here goes through :func:`env`, which records its name and default in
``ENVIRONMENT_VARIABLES`` so the README, docker-compose.yml and tests can be checked against
the single source of truth.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.api.rule_sets import rules_enum_names

BASE_DIR = Path(__file__).resolve().parent.parent

DEV_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

#: name -> default of every environment variable this module reads.
ENVIRONMENT_VARIABLES: dict[str, str] = {}


def env(name: str, default: str = "") -> str:
    """Return the environment variable ``name`` (or ``default``) and record it as read."""
    ENVIRONMENT_VARIABLES[name] = default
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """Read a boolean variable: ``1``, ``true``, ``yes`` and ``on`` are true."""
    return env(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated list variable, dropping empty items."""
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = env("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "Refusing to start with DEBUG off and the development SECRET_KEY: "
        "set the SECRET_KEY environment variable (or DEBUG=1 for local development)."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "rest_framework_simplejwt",
    # Refresh tokens used or signed out are kept here (config/api/authentication.py).
    "rest_framework_simplejwt.token_blacklist",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "clubs",
    "tournaments",
    "games",
]

MIDDLEWARE = [
    # Outermost: every answer, a refusal of the middleware below included, speaks the
    # request's language (config/i18n.py; the API's authentication switches to the user's).
    "config.i18n.LanguageMiddleware",
    # First: a Host not allowed, or a NUL in an API path or query, is a JSON 400 before any
    # other middleware asks for the host or a view queries with it.
    "config.api.middleware.RequestSanityMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # After CORS, so a 413 or 429 still carries the CORS headers a browser app needs.
    "config.api.limits.RequestLimitsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.i18n.SessionUserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.api.middleware.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------

DATABASE_URL = env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
# 0 (close after each request) is the safe default under ASGI workers.
CONN_MAX_AGE = int(env("CONN_MAX_AGE", "0"))
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=CONN_MAX_AGE > 0
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer fails a request in seconds (503), not at the proxy.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
# Seconds a SQLite write waits for another's to finish before it answers 503 (below).
SQLITE_BUSY_TIMEOUT_SECONDS = float(env("SQLITE_BUSY_TIMEOUT_SECONDS", "20"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves several clients at once (docs/configuration.md): WAL lets
    # reads go on beside a write; every transaction takes the write lock when it begins
    # (BEGIN IMMEDIATE), so a transaction that read first never fails at once on finding
    # another's write done meanwhile; and a writer waits up to the busy timeout for the lock.
    # A write that still does not get it answers 503 with Retry-After (config/api/errors.py).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL",
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_BUSY_TIMEOUT_SECONDS,
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "clubs.User"
# Every password sign-in (token, session, admin) is counted and locked out here.
AUTHENTICATION_BACKENDS = ["config.api.authentication.LockoutModelBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# German and English (docs/languages.md). A language is offered here once its catalogs are
# translated (`make messages`); Russian's catalogs exist and wait for a translator.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "config" / "locale", BASE_DIR / "engine" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Only needed for `collectstatic` (the Docker image); without it WhiteNoise serves from apps.
STATIC_ROOT = env("STATIC_ROOT", "") or None
# Serve app static files (admin, Swagger UI, ReDoc) without a collectstatic step.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# --- REST API ---------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.api.authentication.CachedJWTAuthentication",
        "config.api.authentication.LanguageSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON bodies only: no operation has a real upload, and generated clients need one form.
    "DEFAULT_METADATA_CLASS": "config.api.metadata.ApiMetadata",
    "DEFAULT_PARSER_CLASSES": ["config.api.parsers.StrictJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "config.api.pagination.DefaultPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "config.api.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "config.api.errors.exception_handler",
    "DEFAULT_VERSIONING_CLASS": None,
    "DEFAULT_THROTTLE_CLASSES": ["config.api.throttles.UserWriteThrottle"],
}

# Seconds a process remembers a token's user (config/api/authentication.py); 0 turns it off.
JWT_USER_CACHE_SECONDS = float(env("JWT_USER_CACHE_SECONDS", "5"))

# Rate limits (config/api/throttles.py, config/api/limits.py): "N/s|min|hour|day", or "off".
LOGIN_RATE_PER_IP = env("LOGIN_RATE_PER_IP", "30/min")
REGISTER_RATE_PER_IP = env("REGISTER_RATE_PER_IP", "30/hour")
USER_WRITE_RATE = env("USER_WRITE_RATE", "600/min")
ANON_RATE_PER_IP = env("ANON_RATE_PER_IP", "1200/min")
# Reverse proxies in front of the service that append to X-Forwarded-For (1 behind nginx);
# 0 counts clients by REMOTE_ADDR and ignores the header, which clients could forge.
TRUSTED_PROXIES = int(env("TRUSTED_PROXIES", "0"))
# Larger request bodies are refused with 413 before they are read.
MAX_REQUEST_BODY_BYTES = int(env("MAX_REQUEST_BODY_BYTES", str(1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES
LOGIN_LOCKOUT_FAILURES = int(env("LOGIN_LOCKOUT_FAILURES", "10"))
LOGIN_LOCKOUT_ACCOUNT_FAILURES = int(env("LOGIN_LOCKOUT_ACCOUNT_FAILURES", "100"))
LOGIN_LOCKOUT_SECONDS = int(env("LOGIN_LOCKOUT_SECONDS", "900"))
# Confirmation e-mails (registration, a changed address, "send it again") per account, counted
# from the first in the window; and how long the e-mailed confirmation token is valid.
EMAIL_VERIFICATION_RATE = env("EMAIL_VERIFICATION_RATE", "3/hour")
EMAIL_VERIFICATION_MAX_AGE_SECONDS = int(env("EMAIL_VERIFICATION_MAX_AGE_SECONDS", "172800"))

# --- HTTPS (docs/deployment.md) ---------------------------------------------------------------

# HTTPS=1 when clients reach the service only over TLS (in production, always): plain-HTTP
# requests are redirected to https:// (except the probes, which orchestrators call inside the
# network), browsers are told to stay on HTTPS (HSTS) and cookies (admin) travel only over TLS.
# Off by default: `make run`, the benchmarks and the bare compose stack speak plain HTTP.
HTTPS = env_bool("HTTPS", default=False)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
# Seconds browsers remember to use HTTPS only; 0 sends no HSTS header.
SECURE_HSTS_SECONDS = int(env("HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
# Asking browsers' preload lists to hard-code the domain is the domain owner's decision and is
# hard to undo, so it is off unless set; `check --deploy` is told so (security.W021).
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# Behind a proxy that terminates TLS, its X-Forwarded-Proto says whether the client used
# HTTPS. Trusted only with TRUSTED_PROXIES, since the proxy must overwrite what clients send
# (config/nginx.conf does).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXIES else None

# Access tokens live 30 minutes; a refresh token 14 days and exactly one use: refreshing
# answers a new refresh token and blacklists the used one, signing out blacklists it too
# (docs/mobile.md). `manage.py flushexpiredtokens` drops expired entries.
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=30),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=14),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    # A sign-in sets ``User.last_login``: an unconfirmed account that never signed in is
    # forgotten after a while (PERSONAL_DATA_RETENTION), one that did is not.
    "UPDATE_LAST_LOGIN": True,
}

# Where clients reach the API: the schema's server (Swagger UI's "Try it out"), which generated
# clients use by default, and the default of the contact link and of PUBLIC_BASE_URL below.
# `make run HOST=... PORT=...` sets it to the address it serves unless the environment does.
API_PUBLIC_URL = env("API_PUBLIC_URL", "http://127.0.0.1:8000")
# Who answers questions about this deployment's API, and the licence its API description is
# given under: the schema's info.contact and info.license. The project is released under the
# Apache License 2.0 (LICENSE); a deployment may name another, or none with API_LICENSE_NAME="".
API_CONTACT = {
    key: value
    for key, value in {
        "name": env("API_CONTACT_NAME", "Preference API maintainers"),
        "email": env("API_CONTACT_EMAIL", ""),
        "url": env("API_CONTACT_URL", API_PUBLIC_URL.rstrip("/") + "/api/v1/docs/"),
    }.items()
    if value
}
API_LICENSE = {
    key: value
    for key, value in {
        "name": env("API_LICENSE_NAME", "Apache-2.0"),
        "url": env("API_LICENSE_URL", "https://www.apache.org/licenses/LICENSE-2.0"),
    }.items()
    if value
}

SPECTACULAR_SETTINGS = {
    # config/api/converters.py: ids and numbers in paths are integers.
    "PATH_CONVERTER_OVERRIDES": {"id": int, "num": int},
    # ASCII: client generators derive package names from the title.
    "TITLE": "Preference API",
    "DESCRIPTION": (
        "Clubs, tournaments and tables for Préférence and its relatives, the card games of "
        "the registered rule sets (`GET /api/v1/rules/`). Errors share one shape: see "
        "`ApiError`. Live updates: the websocket `/ws/v1/` (docs/live.md)."
    ),
    "VERSION": "2.9.0",
    "SERVERS": [{"url": API_PUBLIC_URL, "description": "This deployment (API_PUBLIC_URL)"}],
    "CONTACT": API_CONTACT,
    "LICENSE": API_LICENSE if "name" in API_LICENSE else {},
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api.schema.finish_schema",
    ],
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every closed set of values gets one stable name, from the one place in the code that
    # defines it (tests/config/test_schema_types.py).
    "ENUM_NAME_OVERRIDES": {
        "EveningStatusEnum": "clubs.models.evenings.Evening.Status",
        "NotificationChannelEnum": "clubs.notifications.CHANNELS",
        "NotificationTypeEnum": "clubs.notifications.TYPE_NAMES",
        "MembershipRoleEnum": "clubs.models.people.Membership.Role",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "TournamentRoundStatusEnum": "tournaments.models.Round.Status",
        "DeliveryStatusEnum": "tournaments.models.Delivery.Status",
        "EventsEnum": "tournaments.models.Webhook.EVENTS",
        "CupEventsEnum": "tournaments.models.Webhook.CUP_EVENTS",
        "CupDeliveryEventEnum": "tournaments.webhooks.CUP_DELIVERY_EVENTS",
        "CupStatusEnum": "tournaments.models.Cup.Status",
        "CupEventStatusEnum": "tournaments.models.CupEvent.Status",
        "CupEventKindEnum": "tournaments.models.CupEvent.Kind",
        "CupResultStatusEnum": "tournaments.api.cup_serializers.DETAIL_STATUSES",
        "CupResultReasonEnum": "tournaments.api.cup_serializers.DETAIL_REASONS",
        "ReasonEnum": "games.api.serializers.LEDGER_REASONS",
        "TournamentInvitationRoleEnum": "tournaments.models.Invitation.Role",
        "TournamentInvitationStatusEnum": "tournaments.models.Invitation.Status",
        "SeatingEnum": "tournaments.models.Tournament.Seating",
        "ScoringEnum": "tournaments.models.Tournament.Scoring",
        "TiebreakEnum": "tournaments.scoring.TIEBREAK_NAMES",
        "DeliveryEventEnum": "tournaments.webhooks.DELIVERY_EVENTS",
        "RoundStatusEnum": "clubs.models.evenings.EveningRound.Status",
        "InvitationStateEnum": "clubs.models.people.Invitation.State",
        "InvitableRoleEnum": "clubs.api.people.INVITABLE_ROLE_CHOICES",
        "AnswerEnum": "clubs.models.evenings.Attendance.Answer",
        "RankedByEnum": "clubs.standings.RANKED_BY",
        "TableStatusEnum": "games.models.Table.Status",
        "ModeEnum": "games.models.Table.Mode",
        "HandStatusEnum": "games.api.serializers.HAND_STATUSES",
        "EventsStatusEnum": "games.models.Hand.Status",
        "PhaseEnum": "games.api.serializers.PHASES",
        "BotLevelEnum": "games.services.BOT_LEVELS",
        "OptionKindEnum": "engine.options.KINDS",
        "ResultUnitEnum": "games.api.rules.RESULT_UNITS",
        # each rule set's variant and option choices (games.api.rules)
        **rules_enum_names(),
    },
    # A nullable enum is ``anyOf: [$ref, null]`` (config.api.schema.finish_schema), never a
    # ``NullEnum`` or ``BlankEnum`` component.
    "ENUM_ADD_EXPLICIT_BLANK_NULL_CHOICE": False,
}

# --- Celery -----------------------------------------------------------------------------------

CELERY_BROKER_URL = env("CELERY_BROKER_URL", "")
# Without a broker, tasks run in-process right away (development and the plain test run).
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker that does not answer fails a send in seconds (no request hangs on it), and the
# worker notices a dead connection and reconnects (its polls wait 1 s, well under 10).
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3, "socket_timeout": 10}
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes the database connection after every task unless this is set
# (then after twice as many tasks); config/celery.py closes it as a request's end does
# instead: past CONN_MAX_AGE, or when it failed (CONN_HEALTH_CHECKS).
CELERY_DB_REUSE_MAX = 1_000_000
# Bot moves and hand analyses solve deals (up to a bot's budget each): their own queue, so
# that standings, settlement and webhooks never wait behind bot thinking. `make worker` serves
# the default queue, `make bots` this one, as docker compose's `worker` and `bots`.
CELERY_BOTS_QUEUE = env("CELERY_BOTS_QUEUE", "bots")
BOT_TASKS = ("games.tasks.bot_act", "games.tasks.analyse_hand")
# Flags of hosted hands' clocks (docs/clocks.md) fall on their own queue, so that no standings,
# notification or webhook work holds a flag back: `make clocks` serves it, as compose `clocks`.
CELERY_CLOCKS_QUEUE = env("CELERY_CLOCKS_QUEUE", "clocks")
CLOCK_TASKS = ("games.tasks.clock_flag", "games.tasks.sweep_clocks")
CELERY_TASK_ROUTES = {
    **{name: {"queue": CELERY_BOTS_QUEUE} for name in BOT_TASKS},
    **{name: {"queue": CELERY_CLOCKS_QUEUE} for name in CLOCK_TASKS},
}
CELERY_TIMEZONE = TIME_ZONE
# Seconds between the worker's sweeps for due notifications (reminders, and any whose
# message was lost), and how long a claimed notification may stay unsent before a sweep
# takes it again (a worker that died while sending).
NOTIFICATION_SWEEP_SECONDS = float(env("NOTIFICATION_SWEEP_SECONDS", "5"))
NOTIFICATION_CLAIM_SECONDS = float(env("NOTIFICATION_CLAIM_SECONDS", "120"))
# How long after a delivery task was given a notification a sweep takes the row as lost (due,
# unsent) and gives it another: not before, so that one row gets one task.
NOTIFICATION_RESEND_SECONDS = float(env("NOTIFICATION_RESEND_SECONDS", "15"))
# Seconds a "your turn" waits before it is sent: a move within them (an app in the foreground
# that polls instead of holding a websocket) takes it back.
NOTIFICATION_YOUR_TURN_DELAY_SECONDS = float(env("NOTIFICATION_YOUR_TURN_DELAY_SECONDS", "10"))
# Clocks of hosted hands (docs/clocks.md): the lag a client may claim for an action (credited
# up to this, and added to every deadline before its flag falls), the beat's sweep for flags,
# how far ahead a flag is handed to the worker (far below the broker's redelivery timeout),
# how late a flag is handed on again (its message was lost), and how often at most.
CLOCK_LAG_CREDIT_MS = int(env("CLOCK_LAG_CREDIT_MS", "1000"))
CLOCK_SWEEP_SECONDS = float(env("CLOCK_SWEEP_SECONDS", "1"))
CLOCK_HORIZON_SECONDS = float(env("CLOCK_HORIZON_SECONDS", "60"))
CLOCK_OVERDUE_SECONDS = float(env("CLOCK_OVERDUE_SECONDS", "5"))
CLOCK_RESEND_SECONDS = float(env("CLOCK_RESEND_SECONDS", "15"))
CELERY_BEAT_SCHEDULE = {
    "sweep-clocks": {"task": "games.tasks.sweep_clocks", "schedule": CLOCK_SWEEP_SECONDS},
    "run-round-clocks": {"task": "tournaments.tasks.run_round_clocks", "schedule": 15.0},
    "kick-stalled-bots": {"task": "games.tasks.kick_stalled_bots", "schedule": 30.0},
    "kick-stale-standings": {
        "task": "clubs.tasks_seasons.kick_stale_standings",
        "schedule": 30.0,
    },
    "forget-idempotency-keys": {"task": "games.tasks.forget_idempotency_keys", "schedule": 3600.0},
    "send-due-notifications": {
        "task": "clubs.tasks.send_due_notifications",
        "schedule": NOTIFICATION_SWEEP_SECONDS,
    },
    "send-evening-reminders": {"task": "clubs.tasks.send_evening_reminders", "schedule": 300.0},
    "extend-evening-series": {"task": "clubs.tasks.extend_evening_series", "schedule": 21600.0},
    # Personal data past its period (PERSONAL_DATA_RETENTION): hourly where the period is a
    # day, so nothing stays more than an hour longer; daily where it is months.
    "forget-expired-personal-data": {
        "task": "clubs.tasks_retention.forget_expired_personal_data",
        "schedule": 3600.0,
    },
    "forget-worker-pings": {"task": "games.tasks.forget_worker_pings", "schedule": 3600.0},
    "forget-expired-tournament-data": {
        "task": "tournaments.tasks_retention.forget_expired_tournament_data",
        "schedule": 86400.0,
    },
}

# --- Games ------------------------------------------------------------------------------------

# Redis for waking long-polling clients: REDIS_URL, else the broker when it is Redis.
REDIS_URL = env("REDIS_URL", "")
EVENTS_REDIS_URL = REDIS_URL or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
# The cache (rate limits, sign-in lockouts): Redis shared by every process when there is one,
# else each process's memory. Keys carry a prefix, so a broker's database can hold them too.
CACHE_KEY_PREFIX = "preference"
if EVENTS_REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": EVENTS_REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            # A Redis outage costs a request at most this long; the limits then let it pass.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }
# How long GET .../events/ waits for the next event before answering with none.
LONG_POLL_SECONDS = float(env("LONG_POLL_SECONDS", "25"))
# How long a process answers anonymous polls of a tournament's standings from the state it
# read last (tournaments/selectors.py); 0 reads it on every request.
PUBLIC_POLL_CACHE_SECONDS = float(env("PUBLIC_POLL_CACHE_SECONDS", "1"))
# Money is shown as "3.40 €"; amounts are always integer minor units.
CURRENCY_SYMBOL = env("CURRENCY_SYMBOL", "€")

# --- Live updates -----------------------------------------------------------------------------

# Websockets at /ws/v1/ (docs/live.md), served by the ASGI `events` process. With Redis every
# process (web, worker, events) publishes to the sockets through it; the in-memory layer (no
# Redis) reaches only sockets served by the same process (development, tests).
if EVENTS_REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [EVENTS_REDIS_URL], "prefix": "live", "capacity": 1000},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1000}}
    }
# Messages waiting to be written to one socket; past it the socket is closed with 4008.
LIVE_QUEUE_LIMIT = int(env("LIVE_QUEUE_LIMIT", "256"))
# Subscriptions one socket may hold, and the largest message a client may send (bytes).
LIVE_MAX_SUBSCRIPTIONS = int(env("LIVE_MAX_SUBSCRIPTIONS", "50"))
LIVE_MAX_MESSAGE_BYTES = int(env("LIVE_MAX_MESSAGE_BYTES", "4096"))
# Seconds between the server's {"type": "ping"} messages.
LIVE_HEARTBEAT_SECONDS = float(env("LIVE_HEARTBEAT_SECONDS", "25"))
# Seconds a socket may stay open with neither a token nor a subscription (then 4001).
LIVE_AUTH_SECONDS = float(env("LIVE_AUTH_SECONDS", "10"))
# Seconds a publish waits for the channel layer (best effort: a change never fails on it).
LIVE_PUBLISH_TIMEOUT = 2.0

# --- Clubs ------------------------------------------------------------------------------------

# E-mail (invitations, evening reminders): printed to the console unless EMAIL_BACKEND says
# otherwise, e.g. django.core.mail.backends.smtp.EmailBackend with the EMAIL_* settings.
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Préférence <noreply@localhost>")
# The address links in e-mails and calendar feeds start with (invitation links, iCal URLs):
# where the API is reached unless set apart.
PUBLIC_BASE_URL = env("PUBLIC_BASE_URL", API_PUBLIC_URL)
# How far ahead a recurring evening series creates its evenings.
EVENING_SERIES_WEEKS_AHEAD = int(env("EVENING_SERIES_WEEKS_AHEAD", "12"))
# Standings wait this long after a change so a burst of entries is computed once.
STANDINGS_COALESCE_SECONDS = float(env("STANDINGS_COALESCE_SECONDS", "2"))

# --- Tournaments ------------------------------------------------------------------------------

# Webhook deliveries (docs/webhooks.md): seconds to wait for a receiver's answer, tries before
# a delivery fails, and the first wait between tries (doubling each time, at most an hour).
WEBHOOK_TIMEOUT_SECONDS = float(env("WEBHOOK_TIMEOUT_SECONDS", "5"))
WEBHOOK_MAX_ATTEMPTS = int(env("WEBHOOK_MAX_ATTEMPTS", "6"))
WEBHOOK_BACKOFF_SECONDS = float(env("WEBHOOK_BACKOFF_SECONDS", "10"))
# After a secret is rotated, deliveries are signed with the old secret too for this long, so
# receivers can switch keys without refusing anything in between.
WEBHOOK_SECRET_OVERLAP_HOURS = float(env("WEBHOOK_SECRET_OVERLAP_HOURS", "24"))
# Webhook URLs may name private, loopback and link-local addresses (config/outbound.py): off,
# so a registered URL cannot reach the server's own network; tests and closed networks only.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", default=False)

# --- Personal data ----------------------------------------------------------------------------

# How long personal data is kept (docs/privacy.md, "Retention periods"); the ``forget-*`` beat
# tasks (CELERY_BEAT_SCHEDULE) delete what has passed its period. Table audit entries and
# tournament logs stay as long as their table or tournament (the club's books).
PERSONAL_DATA_RETENTION = {
    # a stored answer to a repeated request (games.IdempotencyRecord), from the request
    "idempotency_keys": timedelta(hours=24),
    # a worker ping (games.WorkerPing), from the ask
    "worker_pings": timedelta(days=1),
    # the document of a ready export (clubs.DataRequest.document), from when it became ready
    "export_documents": timedelta(hours=24),
    # the record of an export or erasure (clubs.DataRequest): 3 years, a leap day included
    "data_requests": timedelta(days=3 * 365 + 1),
    # a club invitation, from when it expired, was revoked (or, at the latest, was used up)
    "club_invitations": timedelta(days=90),
    # an accepted, declined or withdrawn join request, from the decision
    "join_requests": timedelta(days=365),
    # an account whose e-mail was never confirmed, never signed in and to which nothing is
    # attached (clubs.retention.unconfirmed_accounts_due), from its sign-up
    "unconfirmed_accounts": timedelta(days=30),
    # a notification sent (clubs.Notification: the inbox), from when it was sent
    "notifications": timedelta(days=30),
    # a webhook delivery and its tries (tournaments.Delivery, Attempt), from the last try
    "webhook_deliveries": timedelta(days=90),
    # a tournament invitation, from its answer (or, unanswered, from the tournament's finish)
    "tournament_invitations": timedelta(days=90),
}

# --- Push notifications (docs/notifications.md) -----------------------------------------------

# Each push service is used once its credentials are set; a device of a service without them
# is told nothing by push (its e-mail choices still go out).
# APNs (iOS): the token-based provider key (.p8 file), its key id, the team id, the default
# topic (the app's bundle id; a device may name its own app) and the service's address
# (https://api.sandbox.push.apple.com for development builds).
PUSH_APNS_KEY_FILE = env("PUSH_APNS_KEY_FILE", "")
PUSH_APNS_KEY_ID = env("PUSH_APNS_KEY_ID", "")
PUSH_APNS_TEAM_ID = env("PUSH_APNS_TEAM_ID", "")
PUSH_APNS_TOPIC = env("PUSH_APNS_TOPIC", "")
PUSH_APNS_URL = env("PUSH_APNS_URL", "https://api.push.apple.com")
# FCM HTTP v1 (Android): a Firebase service account's JSON key file (its project id and token
# address are read from it) and the service's address.
PUSH_FCM_CREDENTIALS_FILE = env("PUSH_FCM_CREDENTIALS_FILE", "")
PUSH_FCM_URL = env("PUSH_FCM_URL", "https://fcm.googleapis.com")
# Web Push (browsers): the server's VAPID key (an EC P-256 private key, PEM file; its public
# half is GET /api/v1/push/web-push-key/), the contact that push services see (mailto: or
# https:), and the push services' hosts a subscription's endpoint may name (the browsers'
# own services; the endpoint is an address a user gives us, so no other host is called).
PUSH_WEBPUSH_VAPID_KEY_FILE = env("PUSH_WEBPUSH_VAPID_KEY_FILE", "")
PUSH_WEBPUSH_SUBJECT = env("PUSH_WEBPUSH_SUBJECT", "mailto:noreply@localhost")
PUSH_WEBPUSH_HOSTS = env_list(
    "PUSH_WEBPUSH_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,"
    ".notify.windows.com,.push.apple.com",
)
# Certificates to trust for the push services instead of the system's (tests: the fakes').
PUSH_CA_FILE = env("PUSH_CA_FILE", "")
# Seconds to wait for a push service's answer, and tries of one device before giving up
# (a 429 or 5xx answer is tried again after its Retry-After, else after a doubling wait).
PUSH_TIMEOUT_SECONDS = float(env("PUSH_TIMEOUT_SECONDS", "10"))
PUSH_MAX_ATTEMPTS = int(env("PUSH_MAX_ATTEMPTS", "5"))
PUSH_BACKOFF_SECONDS = float(env("PUSH_BACKOFF_SECONDS", "5"))

# --- Rule sets ------------------------------------------------------------------------------

# Rule sets the engine knows but the apps do not offer yet (``register(rs, offered=False)``:
# none now; three were until issues 26 and 27) may be chosen for tables, evenings and
# tournaments: off. A preview for trying them on a test server; the schema does not document
# them.
PREVIEW_RULE_SETS = env_bool("PREVIEW_RULE_SETS", default=False)

# --- Logging ----------------------------------------------------------------------------------

LOG_LEVEL = env("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
