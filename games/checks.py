"""Deployment checks of our own, run by `manage.py check --deploy`.

Django's checks cover cookies, HSTS and the key; these add what Smoki needs
in production: email that really leaves the machine, and a cache shared by
every web process (the rate limits live there), and Redis for the live
event streams.
"""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

LOCAL_MAIL_BACKENDS = ("console", "locmem", "dummy", "filebased")
LOCAL_CACHES = ("locmem", "dummy", "filebased")


@register(Tags.security, deploy=True)
def mail_backend_check(app_configs, **kwargs):
    backend = settings.MAILERS["default"]["BACKEND"]
    # Smoki's own console backend (config/mail.py) prints whole links; it is
    # as local as Django's.
    if backend == "config.mail.ConsoleEmailBackend" or any(
        f".{name}." in backend for name in LOCAL_MAIL_BACKENDS
    ):
        return [
            Error(
                f"Email goes to {backend}: nobody receives turn notices or confirmations.",
                hint="Set EMAIL_URL, e.g. smtp+tls://user:password@smtp.example.com:587.",
                id="smoki.E001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def shared_cache_check(app_configs, **kwargs):
    backend = settings.CACHES["default"]["BACKEND"]
    if any(f".{name}." in backend for name in LOCAL_CACHES):
        return [
            Warning(
                "The cache is local to each process: login, chat, report, match and "
                "invitation limits are counted per web process and reset on restart.",
                hint="Set CACHE_URL=redis://host:6379/1.",
                id="smoki.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def live_redis_check(app_configs, **kwargs):
    """Without Redis a live page hears only the moves its own process makes
    at once, the rest by a probe of the database every half second."""
    if not settings.SMOKI.get("REDIS_URL"):
        return [
            Warning(
                "SMOKI_REDIS_URL is not set: the matches' live event streams hear moves "
                "made by other processes only by reading each match every half second.",
                hint="Set SMOKI_REDIS_URL=redis://host:6379/1 (docs/operations.md).",
                id="smoki.W002",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def push_services_check(app_configs, **kwargs):
    """A push service reached over plain http would let anyone on the way read
    who is notified when; only the tests allow a local one."""
    plain = [origin for origin in settings.PUSH_SERVICES if not origin.startswith("https://")]
    errors = []
    if plain:
        errors.append(
            Error(
                f"PUSH_SERVICES allows push services without https: {', '.join(plain)}.",
                hint="List only https origins in SMOKI_PUSH_SERVICES.",
                id="smoki.E010",
            )
        )
    if not settings.VAPID_KEYS["private"]:
        errors.append(
            Warning(
                "No VAPID keys: push notifications are off.",
                hint="Set SMOKI_VAPID_PRIVATE_KEY and SMOKI_VAPID_PUBLIC_KEY "
                "(manage.py vapid_keys makes a pair).",
                id="smoki.W010",
            )
        )
    return errors
