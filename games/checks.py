"""Deployment checks of our own, run by `manage.py check --deploy`.

Django's checks cover cookies, HSTS and the key; these add what Smoki needs
in production: email that really leaves the machine, and a cache shared by
every web process (the rate limits live there).
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
