"""Making, revoking and checking personal access tokens (writes and the
lookup the API's authentication does on every request)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_variables

from accounts.bots import is_bot_account
from accounts.selectors import (
    forget_preferences,
    stamp_key,
    user_stamp,
    user_stamp_among,
    user_stamp_with,
)
from api.models import ApiToken
from core.errors import NotFound, ServiceError

PREFIX = "smk_"
SCOPES = {
    "match:read": gettext_lazy("Read my matches"),
    "match:play": gettext_lazy("Play my moves, resign, chat and keep notes"),
    "challenge:read": gettext_lazy("Read challenges and invitations"),
    "challenge:write": gettext_lazy("Make, accept and decline challenges"),
    "bot:play": gettext_lazy("Play as a bot account"),
    "tournament:write": gettext_lazy("Join and leave tournaments and ladders"),
}
#: What a person's token may carry: ``bot:play`` is a bot account's alone
#: (``accounts.bots``).
HUMAN_SCOPES = [scope for scope in SCOPES if scope != "bot:play"]
# ``last_used_at`` is written at most this often per token, not on every
# request: the profile's list tells a token in use from a forgotten one, and a
# write an hour keeps a bot's steady requests from costing one each.
LAST_USE_GRAIN = timedelta(hours=1)
MAX_TOKENS = 20


@sensitive_variables("raw")
def digest(raw: str) -> str:
    """What is kept of a token: its SHA-256 (a token has 256 random bits, so
    no slow hash is needed to make guessing hopeless)."""
    return hashlib.sha256(raw.encode()).hexdigest()


@sensitive_variables("raw")
def make_token(user, name: str, scopes, days: int | None = None) -> tuple[ApiToken, str]:
    """A new token for ``user``; the raw token is returned once, never kept."""
    name = (name or "").replace("\x00", "").strip()[:60]
    if not name:
        raise ServiceError(_("Give the token a name."))
    scopes = sorted(set(scopes or []))
    if not scopes or any(scope not in SCOPES for scope in scopes):
        raise ServiceError(_("Choose at least one of the listed scopes."))
    if "bot:play" in scopes and not is_bot_account(user):
        raise ServiceError(
            _("Only a bot account can use bot:play; turn this account into one on your profile.")
        )
    with transaction.atomic():
        live = ApiToken.objects.select_for_update().filter(user=user, revoked_at=None)
        if len(live) >= MAX_TOKENS:
            raise ServiceError(_("You have too many tokens; revoke one first."))
        raw = PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user,
            name=name,
            prefix=raw[:10],
            digest=digest(raw),
            scopes=scopes,
            expires_at=timezone.now() + timedelta(days=days) if days else None,
        )
    return token, raw


def revoke_token(user, token_id) -> None:
    """Revoke one of ``user``'s tokens; another person's is not admitted to
    exist. Takes effect at once: on every request, and on its open stream at
    its next keep-alive."""
    found = ApiToken.objects.filter(pk=token_id, user=user, revoked_at=None).values_list(
        "digest", flat=True
    )
    token_digest = next(iter(found), None)
    if token_digest is None:
        raise NotFound(_("There is no such token."))
    ApiToken.objects.filter(pk=token_id, revoked_at=None).update(revoked_at=timezone.now())
    _forget(token_digest)
    mark_revoked(token_id)


def revoked_key(token_id) -> str:
    """The cache's mark of a revoked token: a personal token's id, or
    ``oauth-<id>`` for an OAuth access token (``api.oauth.OAuthCaller.pk``)."""
    return f"api:revoked:{token_id}"


def mark_revoked(token_id) -> None:
    """Tell the token's open event stream, in whichever process serves it,
    that the token is gone: the stream ends at its next keep-alive
    (``api.stream``). Kept longer than a stream lasts; a new stream and
    every request look the token up in the database anyway."""
    cache.set(revoked_key(token_id), True, timeout=2 * settings.SMOKI["STREAM_SECONDS"] + 60)


def on_deleted(sender, instance, **kwargs) -> None:
    """A personal or OAuth access token deleted: as if revoked."""
    if isinstance(instance, ApiToken):
        _forget(instance.digest)
        mark_revoked(instance.pk)
    else:
        _forget(instance.token_checksum)
        mark_revoked(f"oauth-{instance.pk}")


def on_oauth_saving(sender, instance, **kwargs) -> None:
    """An OAuth access token's row changed in place (django-oauth-toolkit
    gives a refreshed token's row a new value, scope and expiry when it does
    not rotate it; the admin's form): once the change is committed the old
    value's kept copy is gone, and every copy kept for its owner is made
    again (their stamp dropped, ``accounts.selectors.forget_preferences``)."""
    if instance.pk is None:
        return
    old = (
        type(instance)
        .objects.filter(pk=instance.pk)
        .values_list("token_checksum", "user_id")
        .first()
    )
    if old is None:
        return
    old_checksum, old_user = old

    def after():
        if old_checksum and old_checksum != instance.token_checksum:
            _forget(old_checksum)
        for user_id in {old_user, instance.user_id} - {None}:
            forget_preferences(user_id)

    transaction.on_commit(after)


#: How long a token found in the database is reused from the cache, with its
#: owner and profile: a revocation ends it at once (``_forget``), a change to
#: the owner's user or profile row too (``accounts.selectors.user_stamp``),
#: and its expiry is checked on the copy; so this bounds only how long an
#: unused copy takes room, and ten minutes spares a correspondence bot,
#: which asks every few minutes, a query on most requests.
CACHE_SECONDS = 600
#: What the cache keeps of a revoked or deleted token (under the same key).
GONE = "gone"


#: Whose each token seen by this process is (digest: user id), so that its
#: kept copy and its owner's stamp are read together. A token never changes
#: hands, so nothing here goes stale; at most ``OWNERS_KEPT`` are kept.
_OWNERS: dict[str, int] = {}
OWNERS_KEPT = 10_000


def _remember_owner(token_digest: str, user_id: int) -> None:
    if len(_OWNERS) >= OWNERS_KEPT:
        _OWNERS.clear()
    _OWNERS[token_digest] = user_id


def _cache():
    return caches[settings.SESSION_CACHE_ALIAS]


def _cache_key(token_digest: str) -> str:
    return f"api:token:{token_digest}"


def _forget(token_digest: str) -> None:
    """The token is revoked or deleted: no copy of it is used from now on
    (a request that read it live a moment before cannot put it back:
    copies are only ever added, never written over this)."""
    _cache().set(_cache_key(token_digest), GONE, 2 * CACHE_SECONDS)


def kept_cache():
    """The cache the tokens' copies are kept in (the sessions' alias: no
    copy local to one process, which could outlive a revocation)."""
    return _cache()


def kept_keys(token_digest: str) -> list[str]:
    """What ``kept_or_read`` reads from ``kept_cache()`` for this token: its kept
    copy, and its owner's stamp once this process knows whose it is. The
    API reads them in the round trip that counts the request
    (``api.auth``) and hands them over as ``kept_values``."""
    owner = _OWNERS.get(token_digest)
    keys = [_cache_key(token_digest)]
    if owner is not None:
        keys.append(stamp_key(owner))
    return keys


def kept_or_read(token_digest: str, read, kept_values: dict | None = None):
    """The token under ``token_digest`` (a personal ``ApiToken`` or an OAuth
    ``AccessToken``, with its owner and profile) and its owner's stamp, or
    (None, None) for no live token.

    From the cache when a copy read in the last ``CACHE_SECONDS`` is there
    and its owner's rows have not changed since (one round trip for both
    once this process knows the token's owner, no query); else ``read()``,
    one query, whose answer is kept. The stamp a new copy is kept with was
    read before that query whenever it could be, so a change of the owner's
    rows during the query cannot hide behind a fresh stamp.

    ``kept_values``: what was already read of ``kept_keys(token_digest)``
    (by key), instead of reading it here."""
    key = _cache_key(token_digest)
    cache = _cache()
    owner = _OWNERS.get(token_digest)
    if kept_values is not None:  # read by the caller, in its own round trip
        kept = kept_values.get(key)
        current = None if owner is None else user_stamp_among(kept_values, owner)
    elif owner is not None:  # the copy and the owner's stamp in one round trip
        kept, current = user_stamp_with(owner, key)
    else:
        kept, current = cache.get(key), None
    if kept == GONE:
        return None, None
    if kept is not None:
        token, stamp = kept
        if current is None:
            current = user_stamp(token.user_id)
        if stamp is not None and stamp == current:
            return token, stamp
    token = read()
    if token is None or token.user_id is None:
        return None, None
    if current is None or owner not in (None, token.user_id):
        current = user_stamp(token.user_id)
    if current is not None:
        cache.add(key, (token, current), CACHE_SECONDS)
    _remember_owner(token_digest, token.user_id)
    return token, current


@sensitive_variables("raw")
def token_for(raw: str, kept_values: dict | None = None) -> ApiToken | None:
    """The live personal token ``raw`` stands for, with its owner and
    profile, or None: from the cache or one query (``kept_or_read``, which
    ``kept_values`` is handed to)."""
    if not raw.startswith(PREFIX) or len(raw) > 100:
        return None
    token_digest = digest(raw)

    def read():
        found = next(
            iter(
                ApiToken.objects.select_related("user", "user__profile")
                .filter(digest=token_digest, revoked_at=None)
                .order_by()[:1]
            ),
            None,
        )
        if found is not None and _usable(found):
            _note_use(found)  # before the copy is kept, so it is kept with it
        return found

    token, stamp = kept_or_read(token_digest, read, kept_values)
    if token is None or not _usable(token):
        return None
    if _note_use(token):  # a kept copy older than the grain: kept again with the use
        key = _cache_key(token_digest)
        if stamp is not None and _cache().get(key) not in (None, GONE):
            _cache().set(key, (token, stamp), CACHE_SECONDS)
    return token


def _usable(token: ApiToken) -> bool:
    """Whether a live token may act: its owner active, its expiry not passed."""
    if not token.user.is_active:
        return False
    return token.expires_at is None or token.expires_at > timezone.now()


def _note_use(token: ApiToken) -> bool:
    """Write ``token``'s last use when the one it holds is older than
    ``LAST_USE_GRAIN`` (or it has none); whether it was written."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USE_GRAIN:
        return False
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
    return True


def scopes_for(user) -> list[tuple[str, str]]:
    """The scopes the token form offers ``user``: all of them to a bot
    account, all but ``bot:play`` to a person."""
    allowed = SCOPES if is_bot_account(user) else HUMAN_SCOPES
    return [(scope, SCOPES[scope]) for scope in allowed]


def tokens_of(user) -> list[ApiToken]:
    """The profile's list: live tokens first, newest first."""
    return list(ApiToken.objects.filter(user=user).order_by("revoked_at", "-created_at")[:50])
