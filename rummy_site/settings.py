"""Settings, all from the environment.

Embedded default (no env): SQLite, in-process channel layer, Celery on an in-memory broker
with a worker thread inside the daphne process. With DATABASE_URL and REDIS_URL: PostgreSQL,
Redis pub/sub channel layer and Celery on Redis, each process separate.
Production mode is the default (DEBUG off, a real SECRET_KEY required, secure cookies, HSTS, SSL redirect);
DJANGO_ENV=development asks for the development settings (`make run`, `make test`).
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from rummy_site.log_filters import BAD_REQUEST_LOGGERS

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Safe unless asked otherwise: any start that does not say DJANGO_ENV=development (as `make run`, `make test`
# and the test suite do) is a production start, which needs a real SECRET_KEY and never runs with DEBUG.
DJANGO_ENV = os.environ.get("DJANGO_ENV", "production").strip().lower() or "production"
if DJANGO_ENV not in {"production", "development"}:
    raise ImproperlyConfigured(f"DJANGO_ENV vaut « {DJANGO_ENV} » : production ou development attendu.")
PRODUCTION = DJANGO_ENV == "production"
DEBUG = env_bool("DEBUG", False)
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me-" + "x" * 32

if PRODUCTION:
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY == DEVELOPMENT_SECRET_KEY \
            or SECRET_KEY.startswith("django-insecure"):
        raise ImproperlyConfigured(
            "Démarrage en production refusé : SECRET_KEY doit être une clé secrète d'au moins 50 caractères "
            "(par ex. python -c 'import secrets; print(secrets.token_urlsafe(50))'). Pour développer sur cette "
            "machine : DJANGO_ENV=development (make run et make test le font).")
    if DEBUG:
        raise ImproperlyConfigured(
            "Démarrage en production refusé : DEBUG n'est permis qu'avec DJANGO_ENV=development.")
else:
    SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_SECRET_KEY)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "accounts",
    "tables",
    "tournaments",
    "seasons",
    "problems",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "rummy_site.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.LastSeenMiddleware",  # a player's `last_seen`, at most one write a minute
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: it turns a login that Axes refused into the lock-out page (accounts/lockout.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "rummy_site.urls"
ASGI_APPLICATION = "rummy_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.wallet",
            ],
            "builtins": ["rummy_site.french"],  # `pluralize` with the French rule: « 0 carte »
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# Threads of a daphne process that apply players' moves (tables.consumers). With PostgreSQL a move waits for
# its round trips to the server, and other moves use the core meanwhile (bench/load.py --mode redis: at 200
# tables, p99 370 ms with one thread, 138 ms with three). SQLite has one writer at a time and no round trip to
# wait for: its moves keep to the one database thread.
MOVE_THREADS = int(os.environ.get("MOVE_THREADS", "3" if DATABASE_URL else "1"))
# DATABASE_POOL=1: Django's connection pool for psycopg (each process keeps DATABASE_POOL_MIN to _MAX connections
# and lends one to each request, task or socket handler for its duration) instead of a connection per thread kept
# for CONN_MAX_AGE. bench/RESULTS.md, "Database connections under ASGI", has both measured.
DATABASE_POOL = env_bool("DATABASE_POOL", False)
if DATABASE_URL and DATABASE_POOL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", "16")),
        "timeout": 10,
    }
elif DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", VAR_DIR / "db.sqlite3"),
            # WAL + a busy timeout let the web process and the worker thread write side by side.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file (not :memory:) so browser tests' server processes share it; one per test run.
            "TEST": {"NAME": VAR_DIR / f"test-{os.getpid()}.sqlite3"},
            # Keep each thread's connection: opening one (and its PRAGMAs) for every websocket frame cost
            # more than the frame's own queries.
            "CONN_MAX_AGE": None,
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
# Axes first: while a lock-out holds it refuses before any password is checked.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "accounts.backends.HumanOnlyBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The test suite sets this for itself and for the servers it starts: it creates players by the hundred, and
# the deliberately slow hash (0.2 s of CPU each) is not what those tests are about. Never set in production.
if env_bool("FAST_PASSWORD_HASHER_FOR_TESTS", False) and not PRODUCTION:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                        "django.contrib.auth.hashers.PBKDF2PasswordHasher"]

# Login limits (django-axes; accounts/lockout.py): LOGIN_FAILURE_LIMIT failed logins or password changes for
# one username, or from one client address, lock both out for LOGIN_LOCKOUT_MINUTES. Failures are rows in the
# database, so every process sees them and an admin can see and delete them.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a lock-out ends when it said it would
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"  # REMOTE_ADDR, as every other limit of the site
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # failures only: no row for every successful login
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "old_password", "new_password1", "new_password2",
                             "password1", "password2", "csrfmiddlewaretoken"]

# --- Language -----------------------------------------------------------------------------
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français")]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Development serves files straight from static/ (no collectstatic needed for `make run`), DEBUG on or off.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Redis: channel layer, Celery broker, cache ---------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_POOL_SIZE = int(os.environ.get("CHANNEL_POOL_SIZE", "100"))

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's pub/sub layer, with the table sockets' direct delivery (rummy_site/redis_layer.py).
            "BACKEND": "rummy_site.redis_layer.PubSubChannelLayer",
            "CONFIG": {
                # RESP2: under redis-py's default RESP3, every pubsub message (a whole push) is formatted into a
                # debug line whether debug logging is on or not (~7 % of daphne's CPU under bench/load.py).
                "hosts": [{"address": REDIS_URL, "max_connections": CHANNEL_POOL_SIZE, "protocol": 2}],
                # Pub/sub channels ignore Redis database numbers: the prefix carries it, so two sites on one
                # Redis (two test runs, a staging site) never hear each other's groups.
                "prefix": "asgi" + (urlsplit(REDIS_URL).path.strip("/") or "0"),
            },
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    # A task a killed worker had taken (acks_late) goes back to the queue after this many seconds (Redis
    # default: one hour). It must exceed the longest countdown (a 60 s move timer), or delayed tasks would
    # be delivered twice (harmless, they are version-checked, but wasteful).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "120"))}
    CELERY_EMBEDDED_WORKER = False
else:
    # In-process and O(1) per message (Channels' InMemoryChannelLayer scans every channel on each send).
    CHANNEL_LAYERS = {"default": {"BACKEND": "rummy_site.channel_layer.LocalChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    # The memory broker is polled: every 20 ms rather than kombu's 1 s, or a bot's turn starts up to 1 s late.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.02}
    # Without an event loop (the memory transport has none) countdown tasks wait on a timer thread that
    # sleeps up to this long before it sees a new one: Celery's 1 s made every robot move a second late.
    CELERY_WORKER_TIMER_PRECISION = 0.02
    # No external service: a Celery worker runs as a thread inside the daphne process.
    CELERY_EMBEDDED_WORKER = env_bool("CELERY_EMBEDDED_WORKER", True)

CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Move timers: every worker queues tables.tasks.expire_turns every this many seconds (rummy_site/celery.py).
MOVE_TIMER_SWEEP_SECONDS = float(os.environ.get("MOVE_TIMER_SWEEP_SECONDS", "1.0"))
CELERY_TASK_IGNORE_RESULT = True
# The worker logs through the site's LOGGING (time, level, logger, table; JSON lines with LOG_FORMAT=json).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Celery's Django fixup closes every database connection before and after each task unless this is set: a new
# PostgreSQL connection (a server process forked) for every bot turn. Connections are kept for this many tasks,
# and a broken one is replaced after the task that met it (rummy_site/celery.py: close_old_connections).
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))

# --- E-mail (accounts.notifications: the slow cases) --------------------------------------------
# The console backend by default (e-mails printed in the server's log); a real SMTP server with EMAIL_HOST (and
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS / EMAIL_USE_SSL). Sent by Celery only.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cartes & Rami <ne-pas-repondre@cartes-rami.localhost>")
# The site's address as players reach it, for the links of e-mails (no request to read it from in a task).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# « Problèmes »: the workers top each game's collection up to this many problems from robot self-play, a batch
# every PROBLEMS_TOP_UP_SECONDS (0: off; `manage.py problems_generate` fills it by hand). Finished matches of
# public tables add theirs whatever this says (problems.tasks.harvest).
PROBLEMS_TOP_UP = int(os.environ.get("PROBLEMS_TOP_UP", "0"))
PROBLEMS_TOP_UP_SECONDS = 600
# Finished public matches put their players' decisions to the games' finders (problems.tasks.harvest); 0: not
PROBLEMS_HARVEST = env_bool("PROBLEMS_HARVEST", True)

# The worker's sweep of e-mails not sent yet (a broker away, a worker killed mid-send), every this many seconds.
MAIL_SWEEP_SECONDS = float(os.environ.get("MAIL_SWEEP_SECONDS", "30"))
# A sender's claim on an e-mail (accounts.tasks): longer than one SMTP conversation (EMAIL_TIMEOUT).
MAIL_LEASE_SECONDS = float(os.environ.get("MAIL_LEASE_SECONDS", "120"))

# --- Game timing --------------------------------------------------------------------------
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))
NEXT_ROUND_DELAY_SECONDS = float(os.environ.get("NEXT_ROUND_DELAY_SECONDS", "8"))
ANNOTATE_DELAY_SECONDS = float(os.environ.get("ANNOTATE_DELAY_SECONDS", "2"))  # « Revoir »'s comments, after a match
DISCONNECT_GRACE_SECONDS = float(os.environ.get("DISCONNECT_GRACE_SECONDS", "4"))
# « Partie rapide »: how long a quick-start table waits for players before robots fill its empty places.
QUICK_START_WAIT_SECONDS = float(os.environ.get("QUICK_START_WAIT_SECONDS", "20"))
# Presence: each web server process beats this often; silent for this many beats, it is taken for dead and
# its sockets no longer count as connected players (tables.presence). 0: no heartbeat (tests).
# READINESS_PORT: each daphne process also answers /pret/ on READINESS_HOST:READINESS_PORT, from a thread of its own
# (rummy_site/health.py): a monitoring's answer does not wait behind the tables' sockets. Off when empty.
READINESS_PORT = int(os.environ.get("READINESS_PORT") or 0)
READINESS_HOST = os.environ.get("READINESS_HOST", "127.0.0.1")
PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "5"))
# Redis mode: every this many seconds each daphne process re-sends the full view to a socket still behind its
# table on two looks in a row (a push lost while Redis restarted: tables/resync.py). 0: off.
RESYNC_SECONDS = float(os.environ.get("RESYNC_SECONDS", "2"))
PRESENCE_DEAD_AFTER_BEATS = int(os.environ.get("PRESENCE_DEAD_AFTER_BEATS", "3"))

# --- Security -----------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
CSRF_FAILURE_VIEW = "rummy_site.errors.csrf_failure"  # French, in the site's layout
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Content-Security-Policy: rummy_site/csp.py. Moves per player (websocket and HTTP fallback alike):
MOVE_RATE_LIMIT = int(os.environ.get("MOVE_RATE_LIMIT", "30"))
MOVE_RATE_WINDOW = int(os.environ.get("MOVE_RATE_WINDOW", "10"))  # seconds
# Reverse proxies (addresses or CIDR networks) whose X-Forwarded-For / X-Forwarded-Proto are believed: the last
# value is the player's address and scheme (rummy_site/proxy_headers.py). Empty: nobody's, headers ignored.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^sante/$"]  # the proxy's health check speaks plain HTTP to each process
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Bad requests (a bad Host header, too many POST fields, a 404…): one warning line without traceback, at most
# this many per minute of each kind (rummy_site/log_filters.py); 5xx keep their traceback.
BAD_REQUEST_LOG_LINES_PER_MINUTE = int(os.environ.get("BAD_REQUEST_LOG_LINES_PER_MINUTE", "5"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "table": {"()": "rummy_site.logs.TableField"},
        "bad_request_lines": {
            "()": "rummy_site.log_filters.BadRequestLines",
            "per_minute": BAD_REQUEST_LOG_LINES_PER_MINUTE,
        },
    },
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [table %(table)s] %(message)s"},  # rummy_site.logs
        "json": {"()": "rummy_site.logs.JsonLines"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["table"],
                             "formatter": "json" if os.environ.get("LOG_FORMAT") == "json" else "text"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        "axes": {"level": "WARNING"},  # a line per failed login and per lock-out, not Axes's chatter around them
        **{name: {"filters": ["bad_request_lines"]} for name in BAD_REQUEST_LOGGERS},
    },
}

# --- Error tracking ------------------------------------------------------------------------
# Sentry (or any service speaking its protocol) when SENTRY_DSN is set; off by default. No personal data is sent
# (no cookies, no request bodies, no user names): an error's traceback and its table's id.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(dsn=SENTRY_DSN, send_default_pii=False, traces_sample_rate=0.0, max_request_body_size="never",
                    environment=os.environ.get("SENTRY_ENVIRONMENT", "production"))
