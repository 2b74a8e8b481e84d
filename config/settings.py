"""Smoki settings: one place, read from the environment.

Every value has an embedded default so that a fresh clone runs with nothing
else installed (SQLite, a filesystem Celery broker, email to the console).
Production sets DATABASE_URL, CELERY_BROKER_URL, EMAIL_URL, SECRET_KEY,
ALLOWED_HOSTS and DEBUG=false; see docs/operations.md.
"""

from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
DEVELOPMENT_SECRET_KEY = "smoki-development-key-not-for-production"
# Whitespace around the key (a stray space or newline in a .env file) is no
# part of it.
SECRET_KEY = env("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY).strip()


#: What a production key needs beyond Django's own rule (50 characters, 5
#: different ones, no "django-insecure-" prefix): real variety. Every signed
#: link is as strong as the key.
SECRET_KEY_MIN_DISTINCT = 8
SECRET_KEY_MIN_BITS = 128
SECRET_KEY_MIN_COMPRESSED_BYTES = 32


def _weak_secret_key(key: str) -> bool:
    """A key anyone could guess (README, "Configuration"): the development key
    in any padding, a key Django calls weak (shorter than 50 characters, fewer
    than 5 different ones, or its "django-insecure-" prefix), or a key of
    little variety: fewer than 8 different characters, an entropy estimate
    (how often each character occurs, Shannon's bits per character times the
    length) under 128 bits, or a key that compresses (zlib) to under 32
    bytes, as a repeated or patterned one does ("abcde" ten times and "ab",
    "a" 46 times and "bcde"). A random key of 50 characters passes each by a
    wide margin: 50 random hex digits carry about 170 bits by that estimate
    and compress to no less than 39 bytes."""
    import math
    import zlib
    from collections import Counter

    from django.core.checks.security.base import (
        SECRET_KEY_INSECURE_PREFIX,
        SECRET_KEY_MIN_LENGTH,
        SECRET_KEY_MIN_UNIQUE_CHARACTERS,
    )

    if DEVELOPMENT_SECRET_KEY in key.casefold() or key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return True
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return True
    if len(set(key)) < SECRET_KEY_MIN_DISTINCT:
        return True
    counts = Counter(key).values()
    bits = -sum(n * math.log2(n / len(key)) for n in counts)
    if bits < SECRET_KEY_MIN_BITS:
        return True
    compressed = len(zlib.compress(key.encode(), 9)) - len(zlib.compress(b"", 9))
    if compressed < SECRET_KEY_MIN_COMPRESSED_BYTES:
        return True
    # A key made of a shorter piece repeated is as strong as the piece.
    return (key + key).find(key, 1) <= len(key) // 2


if not DEBUG and _weak_secret_key(SECRET_KEY):
    # Signed links (unsubscribe, email confirmation, sessions) could be forged
    # with a public or guessable key: refuse to start rather than serve them.
    raise ImproperlyConfigured(
        "DEBUG is false: set SECRET_KEY to a long random string (50 characters or more), "
        'e.g. python -c "import secrets; print(secrets.token_urlsafe(50))".'
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")

# The leaderboard's index carries a column with INCLUDE, which PostgreSQL (the
# production database) uses and SQLite ignores.
# OAuth's W008 warns of any http redirect address: Smoki keeps http for the
# loopback addresses of programs on a player's own machine (RFC 8252, a bot's
# http://127.0.0.1:<port>/ callback); staff register exact addresses, https
# for every other (docs/api.md, "OAuth").
SILENCED_SYSTEM_CHECKS = ["models.W040", "oauth2_provider.W008"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django_htmx",
    "allauth",
    "allauth.account",
    "django_countries",
    "accounts",
    "games",
    "players",
    "friends",
    "ladders",
    "tournaments",
    "seasons",
    "matchmaking",
    "oauth2_provider",
    "api",
    "streams",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # In production static files (htmx included) come from the web process
    # itself, under any WSGI server; runserver serves them in development.
    *([] if DEBUG else ["whitenoise.middleware.WhiteNoiseMiddleware"]),
    # Pages and /icons.svg are gzipped when the browser accepts it (a match
    # page: about 40 KB, 8 KB gzipped). After WhiteNoise, which answers for
    # static files itself from their precompressed copies. Pages carry CSRF
    # tokens and a player's own secrets beside what others wrote (names,
    # chat), the ground of a BREACH attack on compressed HTTPS answers: Django
    # masks the CSRF token anew in every answer, and this middleware pads each
    # gzipped answer with up to 100 random bytes ("Heal the BREACH"), so the
    # length of an answer tells an eavesdropper nothing useful. The proxy
    # (deploy/) compresses nothing itself. See docs/operations.md.
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ProfilePreferencesMiddleware",
    # "online now": a cache key touched at most once a minute per player.
    "accounts.middleware.PresenceMiddleware",
    # 405 for methods the site has none of, 400 for a NUL in any parameter.
    "games.web.middleware.RequestGuardMiddleware",
    # A bot account's pages are read-only: it plays through the API (accounts.bots).
    "accounts.bots.BotReadOnlyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Each registered game keeps its board templates in its own package
            # (games.panel.template_loader finds them through the registry).
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "games.panel.template_loader.CatalogLoader",
                        "django.template.loaders.app_directories.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.bell",
                "games.web.context_processors.service_worker",
                "games.web.context_processors.login_link",
            ],
        },
    },
    {
        # The games' boards (<package>/templates/games/<key>/board.jinja, found
        # through the registry): the largest part of every move's answer, drawn
        # several times faster than by Django's language. See games/jinja.py.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.panel.jinja.environment",
            # For the match panel (games/panel.jinja): the user, the login link
            # and the CSRF field masked once per fragment.
            "context_processors": [
                "django.contrib.auth.context_processors.auth",
                "games.web.context_processors.login_link",
                "games.web.context_processors.csrf_once",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3" and "conn_max_age" not in env.str(
    "DATABASE_URL", default=""
):
    # Reusing connections saves a PostgreSQL connection (7-10 ms) per request;
    # see docs/performance.md. A conn_max_age in DATABASE_URL takes precedence.
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web server and the Celery worker share the file without
    # "database is locked" errors; IMMEDIATE takes the write lock up front.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
if env.bool("DATABASE_TRANSACTION_POOLING", default=False):
    # Behind PgBouncer in transaction mode (deploy/pgbouncer/) a server
    # connection is lent for one transaction at a time: no server-side
    # cursors (QuerySet.iterator() would keep a named cursor open across
    # transactions) and no prepared statements (psycopg prepares a query it
    # has run five times on a connection, and the next transaction may get
    # another server connection).
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
# The event streams' server (uvicorn, deploy/) reads in short bursts from
# passing threads and closes each read's connection, so that an idle stream
# holds none. With SMOKI_DB_POOL=N (at most N connections) "closed" puts the
# connection back in a pool (psycopg_pool, through Django) instead of ending
# it: a read no longer pays for a new PostgreSQL connection (about 24 ms
# against 4 ms for the read itself; docs/performance.md). 0, the default,
# is no pool: gunicorn's and the workers' processes keep CONN_MAX_AGE.
DB_POOL = env.int("SMOKI_DB_POOL", default=0)
if DB_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # the pool checks them
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DB_POOL,
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# Accounts (django-allauth): sign up with email, username and password; the
# username is how friends invite each other.
SITE_ID = 1
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
LOGIN_REDIRECT_URL = "lobby"
LOGIN_URL = "account_login"
ACCOUNT_LOGOUT_REDIRECT_URL = "lobby"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Smoki] "
# Failed logins are limited per account and address together (5 in 5 minutes:
# the key is the login and the client's address, accounts.adapter), then per
# address, more loosely (20 a minute), so one address's failures for one
# account lock out neither that account elsewhere nor the address's other
# accounts. The account's limit comes first: a try it refuses does not count
# against the address.
ACCOUNT_RATE_LIMITS = {"login_failed": "5/5m/key,20/m/ip"}
# And per account from every address together: 10 failed logins in 15
# minutes and 40 a day, then that account's logins are refused from browsers
# it never logged in from (accounts.adapter; its owner is emailed, at most
# once a day). Failures refused by a limit do not count.
LOGIN_FAILED_PER_ACCOUNT = "10/15m/key,40/d/key"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("pl", "Polski"), ("cs", "Čeština")]
# Each game's own catalogue beside its rules, then the site's. makemessages
# files a string under the first of these whose folder is a prefix of the
# source file's folder (a plain string prefix), so the games come before the
# project root, in reverse order ("drakon" before its prefix "drako").
LOCALE_PATHS = [
    *sorted((BASE_DIR / "games/catalog").glob("*/locale"), reverse=True),
    BASE_DIR / "locale",
]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
# Players' pictures (accounts.pictures: re-encoded 256 px WebP files, never
# the upload itself). Django serves them in development (config/urls.py);
# in production the proxy serves MEDIA_ROOT at /media/ (deploy/caddy).
MEDIA_URL = "/media/"
# A request body is read whole by the request guard (games/web/middleware.py);
# the limit leaves room for a 5 MB picture (accounts.pictures.MAX_UPLOAD_BYTES)
# and its form. Larger bodies are refused with a 400 saying so.
DATA_UPLOAD_MAX_MEMORY_SIZE = 6 * 1024 * 1024
MEDIA_ROOT = env("MEDIA_ROOT", default=str(BASE_DIR / "var" / "media"))
# In production (DEBUG=false) `collectstatic` minifies the site's own scripts
# (config/storage.py) and writes every file under a name
# that carries its hash, with gzip and Brotli copies (Brotli: the `brotli`
# package), and WhiteNoise, or the proxy in deploy/, serves them with
# far-future cache headers; in development files come straight from the
# source folders.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "config.storage.MinifiedCompressedManifestStaticFilesStorage"
        )
    },
}

# EMAIL_URL, e.g. smtp+tls://user:password@smtp.example.com:587,
# consolemail:// (the default) to print messages to the console, or
# filemail:// to write each one to a file under var/mail/ (filemail:///a/dir
# or filemail://a/dir, relative to the project, for another folder).
_email_url = env("EMAIL_URL", default="consolemail://")
EMAIL_SCHEMES = (
    "smtp://, smtp+tls://, smtps:// (smtp+ssl://), consolemail://, filemail://[folder], "
    "memorymail:// or dummymail://"
)
try:
    _email = env.email_url("EMAIL_URL", default="consolemail://")
except ImproperlyConfigured as error:
    raise ImproperlyConfigured(
        f"EMAIL_URL {_email_url.split(':', 1)[0]!r} is not a way to send email; "
        f"use {EMAIL_SCHEMES}."
    ) from error
if _email["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend":
    # Printed readably, links whole (Django's prints quoted-printable MIME).
    _email["EMAIL_BACKEND"] = "config.mail.ConsoleEmailBackend"
_mail_folder = ""
if _email["EMAIL_BACKEND"].endswith("filebased.EmailBackend"):
    # The folder as written after filemail:// (environ drops an absolute
    # path's first slash); none: var/mail/.
    _folder = _email_url.split("://", 1)[1].split("?", 1)[0]
    _mail_folder = str(
        (Path(_folder) if _folder.startswith("/") else BASE_DIR / _folder)
        if _folder
        else VAR_DIR / "mail"
    )
_smtp_options = {
    "host": _email.get("EMAIL_HOST"),
    "port": _email.get("EMAIL_PORT"),
    "username": _email.get("EMAIL_HOST_USER"),
    "password": _email.get("EMAIL_HOST_PASSWORD"),
    "use_tls": _email.get("EMAIL_USE_TLS", False),
    "use_ssl": _email.get("EMAIL_USE_SSL", False),
    # A mail server that accepts the connection and never answers must not
    # hold a worker: every socket operation gives up after this many seconds.
    "timeout": env.int("SMOKI_SMTP_TIMEOUT", default=20),
}
MAILERS = {
    "default": {
        "BACKEND": _email["EMAIL_BACKEND"],
        "OPTIONS": (
            {k: v for k, v in _smtp_options.items() if v not in (None, "")}
            if _email["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
            else {"file_path": _mail_folder}
            if _mail_folder
            else {}
        ),
    }
}
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Smoki <noreply@smoki.localhost>")

# Celery: Redis in production; kombu's filesystem transport by default, which
# needs no server so `make run` works on a bare machine.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://localhost/")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
    for _sub in ("out", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
else:
    # Handing work to the broker happens after a request's commit and must not
    # stall it: short socket timeouts, one connection attempt, no publish
    # retries. What a publish loses the outbox relay hands over again.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": env.float("SMOKI_BROKER_TIMEOUT", default=2.0),
        "socket_timeout": env.float("SMOKI_BROKER_TIMEOUT", default=2.0),
        "max_retries": 1,
    }
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("SMOKI_BROKER_TIMEOUT", default=2.0)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
# A worker survives its broker's loss and a frozen broker (config/celery.py:
# Consumer, Request), and says whether it consumes (config/workers.py).
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
# Deliveries and bots on their own queues: run a worker for each
# (docs/operations.md), so a search never delays the sweep or the mail.
CELERY_TASK_ROUTES = {
    "games.tasks.play_bot_turns": {"queue": "bots"},
    # Reviews of finished matches on a queue of their own: a review (a minute
    # of search) never waits in front of a live match's bot move.
    "games.tasks.review_match": {"queue": "reviews"},
    "games.tasks.deliver_notification": {"queue": "mail"},
    "games.tasks.deliver_notifications": {"queue": "mail"},
    "games.tasks.send_digest": {"queue": "mail"},
    "games.tasks.send_daily_digests": {"queue": "mail"},
    "games.tasks.deliver_pushes": {"queue": "mail"},
    "games.tasks.deliver_push": {"queue": "mail"},
}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# The sweep and the relay run every minute (the fault run makes it seconds).
_every = env.float("SMOKI_BEAT_SECONDS", default=60.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": _every},
    "relay-outbox": {"task": "games.tasks.relay_outbox", "schedule": _every},
    "sweep-tournaments": {"task": "tournaments.tasks.sweep_tournaments", "schedule": _every},
    "sweep-seasons": {"task": "seasons.tasks.sweep_seasons", "schedule": 10 * _every},
    "quick-match": {"task": "matchmaking.tasks.match_waiting", "schedule": _every},
    "release-stuck-claims": {"task": "games.tasks.release_stuck_claims", "schedule": 10 * _every},
    "expire-ladder-challenges": {
        "task": "ladders.tasks.expire_challenges",
        "schedule": 10 * _every,
    },
    "prune-idempotent-answers": {
        "task": "api.tasks.prune_idempotent_answers",
        "schedule": 60 * _every,
    },
    "prune-stream-events": {"task": "streams.tasks.prune_events", "schedule": 60 * _every},
    "daily-digests": {
        "task": "games.tasks.send_daily_digests",
        "schedule": crontab(hour=env.int("SMOKI_DIGEST_HOUR", default=7), minute=0),
    },
}

# Content Security Policy: only our own scripts and styles, nothing inline
# without the per-request nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
# HTTPS in production: redirect plain HTTP, tell browsers to stay on HTTPS
# (HSTS), and trust the proxy's header saying a request came over HTTPS,
# e.g. SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto,https (only behind a proxy
# that always sets it).
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
_proxy_header = env.list("SECURE_PROXY_SSL_HEADER", default=[])
if _proxy_header:
    if len(_proxy_header) != 2:
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER is a header and a value: X-Forwarded-Proto,https"
        )
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _proxy_header[0].upper().replace("-", "_"),
        _proxy_header[1],
    )

# The cache holds the rate limits (logins, chat, reports, new matches,
# invitations), so every web process must share it: Redis in production
# (CACHE_URL=redis://host:6379/1). The embedded default is memory local to
# one process, which is shared by everything `make run` serves (one
# runserver process) but not by several gunicorn workers: `check --deploy`
# warns about it.
#
# Nothing needs Redis to answer (config/cache.py): each command gives up after
# SMOKI_CACHE_TIMEOUT seconds, the process then leaves Redis alone for
# SMOKI_CACHE_PAUSE_SECONDS, and meanwhile "default" (rate limits, the log's
# sentences) answers from the process's own memory and "sessions" (sessions
# and preferences) from PostgreSQL.
_cache_url = env("CACHE_URL", default="")
if _cache_url.startswith(("redis://", "rediss://", "unix://")):
    _redis_cache = {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": _cache_url,
        "KEY_PREFIX": "smoki",
        "OPTIONS": {
            "SOCKET_TIMEOUT": env.float("SMOKI_CACHE_TIMEOUT", default=0.5),
            "PAUSE_SECONDS": env.float("SMOKI_CACHE_PAUSE_SECONDS", default=30),
        },
    }
    CACHES = {
        "default": {
            **_redis_cache,
            "OPTIONS": {**_redis_cache["OPTIONS"], "LOCAL_FALLBACK": True},
        },
        "sessions": _redis_cache,
    }
elif _cache_url:
    raise ImproperlyConfigured("CACHE_URL must be a redis:// URL (or unset for local memory).")
else:
    # Django's local-memory cache keeps 300 entries by default and then drops a
    # third of them: fewer than one busy site's sessions, preferences and log
    # sentences. Entries are small; 50,000 of them take a few tens of MB. Both
    # aliases name the same store.
    _local_cache = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": env.int("CACHE_MAX_ENTRIES", default=50_000)},
    }
    CACHES = {"default": _local_cache, "sessions": _local_cache}

# Sessions are read from the cache and written through to the database
# (``cached_db``): a signed-in request costs no query for its session once
# the cache holds it, and a session survives a cache restart. With Redis every
# web process shares them; the local-memory default suits one process. They
# use the "sessions" alias, which falls back to the database (never to a
# copy local to one process) while Redis is out of reach.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "sessions"

# Behind a reverse proxy every request comes from the proxy's address: name
# how many proxies append to X-Forwarded-For, so login limits count each
# client, not everyone at once (0: use the connection's address).
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

# OAuth2 for third-party apps (django-oauth-toolkit, docs/api.md): the
# authorization code grant with PKCE required, the API's scopes
# (api.oauth.Scopes reads api.tokens.SCOPES), tokens that say what they are
# (api.oauth.access_token: "smo_…"), an hour's access token and a refresh
# token that is replaced at each use and refused when used twice. Apps are
# registered by staff at /admin/oauth2_provider/application/.
# Named here so that a migration referring to them (api.IdempotentAnswer's
# access token) can resolve the toolkit's swappable models.
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "oauth2_provider.AccessToken"
OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL = "oauth2_provider.RefreshToken"
OAUTH2_PROVIDER_ID_TOKEN_MODEL = "oauth2_provider.IDToken"
OAUTH2_PROVIDER_GRANT_MODEL = "oauth2_provider.Grant"
OAUTH2_PROVIDER = {
    "PKCE_REQUIRED": True,
    "SCOPES_BACKEND_CLASS": "api.oauth.Scopes",
    "ACCESS_TOKEN_GENERATOR": "api.oauth.access_token",
    "REFRESH_TOKEN_GENERATOR": "api.oauth.refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": env.int("SMOKI_OAUTH_ACCESS_SECONDS", default=3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env.int("SMOKI_OAUTH_REFRESH_SECONDS", default=90 * 24 * 3600),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    # RFC 9700 (OAuth 2.0 Security Best Current Practice): only the checksum
    # of a token is kept (like a personal token's digest), S256 challenges
    # only, no implicit or password grant, tokens never in a query string.
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    # The authorization answer names its issuer (RFC 9207): a client that
    # talks to several servers can tell whose code it got.
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    # A web app's redirect is https; a program on the player's own machine
    # (a bot) uses http://127.0.0.1:<any port>/ (RFC 8252). Staff register
    # each app's exact redirect addresses, http for loopback ones only.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"],
}

SMOKI = {
    # The public API's limits a minute (core.limits.API_ADDRESS, API_TOKEN;
    # docs/api.md). `make load` raises them so that its one address is
    # counted but never refused.
    "API_ADDRESS_PER_MINUTE": env.int("SMOKI_API_ADDRESS_PER_MINUTE", default=300),
    "API_TOKEN_PER_MINUTE": env.int("SMOKI_API_TOKEN_PER_MINUTE", default=120),
    # How often the match page asks whether anything changed (seconds).
    "POLL_SECONDS": env.int("SMOKI_POLL_SECONDS", default=5),
    # How many moves one bot task plays before handing over to a fresh task.
    "BOT_MOVES_PER_TASK": env.int("SMOKI_BOT_MOVES_PER_TASK", default=50),
    # The strong bot's search (docs/bots.md): a fixed number of rollouts a
    # move, which makes its choice repeatable, under a hard cap of wall time
    # (seconds of one core). Either at 0: the heuristic answers instead.
    "BOT_STRONG_ITERATIONS": env.int("SMOKI_BOT_STRONG_ITERATIONS", default=256),
    "BOT_STRONG_SECONDS": env.float("SMOKI_BOT_STRONG_SECONDS", default=1.0),
    # A finished match's review (docs/bots.md, "Reviews"): the search's
    # rollouts a decision and the deals that judge the choice made against the
    # preferred one (the search's counted), each capped per game (a bot
    # module's REVIEW: Drakon 8 and 6).
    "REVIEW_ITERATIONS": env.int("SMOKI_REVIEW_ITERATIONS", default=24),
    "REVIEW_SAMPLES": env.int("SMOKI_REVIEW_SAMPLES", default=20),
    # First retry delay of a failed email; it doubles with each attempt up to
    # the maximum; after EMAIL_ATTEMPTS attempts (about a day) it is failed.
    "RETRY_BASE_SECONDS": env.int("SMOKI_RETRY_BASE_SECONDS", default=60),
    "RETRY_MAX_SECONDS": env.int("SMOKI_RETRY_MAX_SECONDS", default=3600),
    "EMAIL_ATTEMPTS": env.int("SMOKI_EMAIL_ATTEMPTS", default=30),
    # How long work waits for its own hand-over to the broker before the
    # outbox relay hands it over again.
    "RELAY_AFTER_SECONDS": env.int("SMOKI_RELAY_AFTER_SECONDS", default=60),
    # A claim this old belongs to a worker that died mid-send (marked failed).
    "STUCK_AFTER_SECONDS": env.int("SMOKI_STUCK_AFTER_SECONDS", default=900),
    # After a failed hand-over, a process leaves work to the relay this long.
    "BROKER_PAUSE_SECONDS": env.int("SMOKI_BROKER_PAUSE_SECONDS", default=30),
    # The sweep wakes this many due matches itself and hands each further
    # batch to another worker (games.play.timeouts.sweep).
    "SWEEP_BATCH": env.int("SMOKI_SWEEP_BATCH", default=100),
    # Due matches woken together in one transaction (games.play.timeouts.wake_together).
    "SWEEP_TOGETHER": env.int("SMOKI_SWEEP_TOGETHER", default=25),
    # Ladders (docs/ladders.md): a player challenges at most LADDER_REACH
    # places above their own; the challenged player accepts within
    # LADDER_ACCEPT_DAYS or loses the challenge; a challenge's match gives
    # LADDER_DAYS_PER_MOVE a move (loss on time); a player issues at most
    # LADDER_CHALLENGES_PER_DAY challenges a day.
    "LADDER_REACH": env.int("SMOKI_LADDER_REACH", default=3),
    # Bot accounts (docs/api.md, "Bot accounts"): how many matches against
    # another bot account one bot account may take a seat in a day.
    "BOT_MATCHES_PER_DAY": env.int("SMOKI_BOT_MATCHES_PER_DAY", default=100),
    "LADDER_ACCEPT_DAYS": env.int("SMOKI_LADDER_ACCEPT_DAYS", default=7),
    "LADDER_DAYS_PER_MOVE": env.int("SMOKI_LADDER_DAYS_PER_MOVE", default=3),
    "LADDER_CHALLENGES_PER_DAY": env.int("SMOKI_LADDER_CHALLENGES_PER_DAY", default=5),
    # Tournaments (docs/tournaments.md): how many one player may run (created,
    # not over) and enter (open or running) at once, and their sizes.
    "TOURNAMENTS_RUNNING_MAX": env.int("SMOKI_TOURNAMENTS_RUNNING_MAX", default=3),
    "TOURNAMENTS_ENTERED_MAX": env.int("SMOKI_TOURNAMENTS_ENTERED_MAX", default=10),
    "TOURNAMENT_MAX_ENTRANTS": env.int("SMOKI_TOURNAMENT_MAX_ENTRANTS", default=256),
    "ROUND_ROBIN_MAX_ENTRANTS": env.int("SMOKI_ROUND_ROBIN_MAX_ENTRANTS", default=16),
    "TOURNAMENT_MAX_ROUNDS": env.int("SMOKI_TOURNAMENT_MAX_ROUNDS", default=15),
    "TOURNAMENT_MAX_DAYS_AHEAD": env.int("SMOKI_TOURNAMENT_MAX_DAYS_AHEAD", default=90),
    # Seasons (docs/seasons.md): the games with one (empty: every game two
    # can play), the sign-up's weeks before a quarter, and the clock rules
    # given to the divisions' tournaments.
    "SEASON_GAMES": env.list("SMOKI_SEASON_GAMES", default=[]),
    "SEASON_SIGNUP_DAYS": env.int("SMOKI_SEASON_SIGNUP_DAYS", default=21),
    "SEASON_DAYS_PER_MOVE": env.int("SMOKI_SEASON_DAYS_PER_MOVE", default=3),
    "SEASON_VACATION_ALLOWED": env.bool("SMOKI_SEASON_VACATION_ALLOWED", default=True),
    "SEASON_WEEKEND_PAUSE": env.bool("SMOKI_SEASON_WEEKEND_PAUSE", default=False),
    # Quick match (docs/quick-match.md): requests one player may have waiting
    # at once, and new requests a player may make a day.
    "QUICK_MATCH_MAX_OPEN": env.int("SMOKI_QUICK_MATCH_MAX_OPEN", default=3),
    "QUICK_MATCH_PER_DAY": env.int("SMOKI_QUICK_MATCH_PER_DAY", default=20),
    # Live mode (docs/community.md): the events streams' Redis for pub/sub
    # (unset: each stream checks its match every LIVE_PROBE_SECONDS instead),
    # how often a stream says it is still there (and refreshes its player's
    # presence, which lasts LIVE_PRESENCE_SECONDS), how long one stream stays
    # open before the browser reconnects, the poll's interval while a page
    # hears its stream (how often one match may be offered for live play is
    # core/limits.py's LIVE_OFFER).
    "REDIS_URL": env("SMOKI_REDIS_URL", default=""),
    "LIVE_PROBE_SECONDS": env.float("SMOKI_LIVE_PROBE_SECONDS", default=0.5),
    "LIVE_HEARTBEAT_SECONDS": env.float("SMOKI_LIVE_HEARTBEAT_SECONDS", default=10),
    "LIVE_PRESENCE_SECONDS": env.int("SMOKI_LIVE_PRESENCE_SECONDS", default=30),
    "LIVE_STREAM_SECONDS": env.int("SMOKI_LIVE_STREAM_SECONDS", default=600),
    "LIVE_POLL_SECONDS": env.int("SMOKI_LIVE_POLL_SECONDS", default=30),
    # The API's event stream (docs/api.md, "The event stream"): how long each
    # player's events are kept for a stream to resume from, the keep-alive
    # line's interval, how often an open stream asks the database whether its
    # token is still good (a revocation ends it sooner, at its next keep-alive,
    # from a mark in the cache), and how long one stream stays open before its
    # client reconnects.
    "STREAM_KEEP_HOURS": env.int("SMOKI_STREAM_KEEP_HOURS", default=48),
    "STREAM_KEEPALIVE_SECONDS": env.float("SMOKI_STREAM_KEEPALIVE_SECONDS", default=7),
    "STREAM_TOKEN_CHECK_SECONDS": env.float("SMOKI_STREAM_TOKEN_CHECK_SECONDS", default=600),
    "STREAM_SECONDS": env.int("SMOKI_STREAM_SECONDS", default=3600),
}

# Error reports and log lines never show the secret an address carries (a
# one-move email link, an invitation link, an unsubscribe link, the query's
# invitation token): core/reporting.py. The filter sits on the loggers that
# write a request's path, so every handler gets the record with the secret
# hidden (the admins' email, any handler added later), and on the console.
# The development server's request lines keep Django's own format. Neither
# gunicorn (no --access-logfile), uvicorn (--no-access-log) nor Caddy (no
# log directive) keeps an access log (deploy/).
DEFAULT_EXCEPTION_REPORTER = "core.reporting.SecretsHiddenReporter"
DEFAULT_EXCEPTION_REPORTER_FILTER = "core.reporting.SecretsHiddenFilter"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"hide_secrets": {"()": "core.reporting.HideSecretsInLogs"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["hide_secrets"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["hide_secrets"],
        },
    },
    "loggers": {
        "django.request": {"filters": ["hide_secrets"]},
        "django.security": {"filters": ["hide_secrets"]},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}


# Web push (games/correspondence/push.py, docs/correspondence.md). The VAPID
# key pair identifies the site to the push services: in production set
# SMOKI_VAPID_PRIVATE_KEY and SMOKI_VAPID_PUBLIC_KEY (base64url, from
# `manage.py vapid_keys`); `make run` makes development keys in var/vapid.json.
def _vapid_keys() -> dict:
    import json

    private = env.str("SMOKI_VAPID_PRIVATE_KEY", default="")
    public = env.str("SMOKI_VAPID_PUBLIC_KEY", default="")
    # The development pair only in development: a production site without
    # keys should be told so by `check --deploy`, not run on a stray file.
    if not private and DEBUG and (VAR_DIR / "vapid.json").exists():
        saved = json.loads((VAR_DIR / "vapid.json").read_text())
        private, public = saved.get("private", ""), saved.get("public", "")
    return {"private": private, "public": public}


VAPID_KEYS = _vapid_keys()
VAPID_SUBJECT = env.str("SMOKI_VAPID_SUBJECT", default="mailto:admin@smoki.invalid")
# Where a subscription may point: the origins of the public push services
# ("https://" + host, a leading "*." for any subdomain). Only https in
# production (checked by `check --deploy`); the tests add a local one.
PUSH_SERVICES = env.list(
    "SMOKI_PUSH_SERVICES",
    default=[
        "https://fcm.googleapis.com",
        "https://updates.push.services.mozilla.com",
        "https://*.push.apple.com",
        "https://*.notify.windows.com",
    ],
)
PUSH_TIMEOUT_SECONDS = env.float("SMOKI_PUSH_TIMEOUT_SECONDS", default=10.0)
# Players' webhooks (Discord, Slack, signed JSON; games/correspondence/webhooks.py):
# posts from the worker to addresses players give, so an operator turns them on.
WEBHOOKS_ENABLED = env.bool("SMOKI_WEBHOOKS", default=False)
