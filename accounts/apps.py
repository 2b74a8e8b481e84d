from urllib.parse import urlsplit

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_migrate


def name_the_site(sender, using="default", **kwargs):
    """The site allauth names in its emails is Smoki, at the address it is served from.

    ``django.contrib.sites`` creates "example.com"; every migrate puts the
    name and the domain of ``SITE_URL`` in its place.
    """
    from django.contrib.sites.models import Site

    domain = urlsplit(settings.SITE_URL).netloc or "localhost"
    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID, defaults={"name": "Smoki", "domain": domain}
    )


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from accounts import signals  # noqa: F401

        post_migrate.connect(name_the_site, sender=self)
