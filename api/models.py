"""Personal access tokens for the public API (``docs/api.md``).

A token is shown to its owner once, when it is made; only its SHA-256
digest is kept, so a copy of the database cannot be used to act for anyone.
The first characters (``prefix``) stay readable so the owner can tell their
tokens apart on the profile page.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"


class IdempotentAnswerQuerySet(models.QuerySet):
    def kept(self):
        """The answers still honoured: a key is good for ``KEPT_FOR`` (a day),
        long enough for any client's retries; older rows are pruned hourly
        (``api.tasks.prune_idempotent_answers``)."""
        return self.filter(created_at__gte=timezone.now() - IdempotentAnswer.KEPT_FOR)

    def expired(self):
        return self.filter(created_at__lt=timezone.now() - IdempotentAnswer.KEPT_FOR)


class IdempotentAnswer(models.Model):
    """The answer given to a write sent with an ``Idempotency-Key``: a retry
    with the same key gets it again instead of acting twice. Kept per token:
    a personal token (``token``) or an OAuth access token (``access_token``)."""

    KEPT_FOR = timedelta(days=1)

    token = models.ForeignKey(
        ApiToken, on_delete=models.CASCADE, related_name="answers", null=True, blank=True
    )
    access_token = models.ForeignKey(
        "oauth2_provider.AccessToken",
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    key = models.CharField(max_length=100)
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = IdempotentAnswerQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["token", "key"], name="idempotent_answer_unique_key"),
            models.UniqueConstraint(
                fields=["access_token", "key"], name="idempotent_answer_unique_oauth_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.token_id or self.access_token_id}:{self.key}"
