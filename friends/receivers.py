"""What the friends app hears: a block made between two players removes the
follows between them, both ways (the blocked player is not told)."""

from django.db.models.signals import post_save

from accounts.models import Block
from friends.services import forget_between


def _block_made(sender, instance: Block, created: bool, **kwargs) -> None:
    if created:
        forget_between(instance.blocker_id, instance.blocked_id)


def connect() -> None:
    post_save.connect(_block_made, sender=Block, dispatch_uid="friends-block-removes-follows")
