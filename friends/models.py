"""Who follows whom. Two players who follow each other are friends."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Follow(models.Model):
    """``follower`` follows ``followed``: the follower sees them among the
    players they follow, with their presence; when both follow each other
    they are friends (``friends.selectors.friend_ids``)."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_made"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followed_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]
        # "Who follows me" is read by the followed player's id.
        indexes = [models.Index(fields=["followed", "follower"], name="follow_by_followed")]

    def __str__(self):
        return f"{self.follower} follows {self.followed}"
