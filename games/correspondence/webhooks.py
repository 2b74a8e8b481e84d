"""Posting to a player's or an organiser's webhook without letting the site
be used to reach what it should not (server-side request forgery).

An address is allowed only over ``https``, without a user or password in
it, to a host whose every resolved address is public: no private,
loopback, link-local (the cloud metadata service at 169.254.169.254
among them), shared, reserved, multicast or unspecified address, in IPv4
or IPv6, nor an IPv6 address that carries one of those (IPv4-mapped,
NAT64, 6to4, Teredo). The host is resolved once and the connection made to
that very address (TLS still checks the certificate for the host's name),
so a DNS answer that changes between the check and the connection
(rebinding) cannot redirect it. Redirects are not followed: a 3xx answer
is a failure like any other, so a redirect to an inner address never
happens. Each post has a short timeout and reads at most ``MAX_ANSWER``
bytes of the answer. The guard runs again on every try.

Bodies: Discord's and Slack's own shapes, or for a generic endpoint a JSON
event signed the Standard Webhooks way (``webhook-id``,
``webhook-timestamp``, ``webhook-signature``).
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
from collections.abc import Callable
from datetime import UTC, datetime
from urllib.parse import urlsplit

TIMEOUT_SECONDS = 5.0
MAX_BODY = 16 * 1024
MAX_ANSWER = 4 * 1024

DISCORD = "discord"
SLACK = "slack"
GENERIC = "generic"


class Unsafe(Exception):
    """The address may not be posted to; the message says why."""


def public_ip(value: str) -> bool:
    """Whether ``value`` is an address on the public internet, looking through
    the IPv6 forms that carry an IPv4 address."""
    try:
        address = ipaddress.ip_address(value.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None and not public_ip(str(inner)):
            return False
    return address.is_global and not address.is_multicast


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64 or address in _NAT64_LOCAL:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def check_url(url: str) -> tuple[str, int, str]:
    """The host, port and path of an allowed ``https`` address; ``Unsafe``
    otherwise (before any resolution)."""
    if not isinstance(url, str) or len(url) > 1000:
        raise Unsafe("The address is too long.")
    try:
        parts = urlsplit(url.strip())
        port = parts.port or 443
    except ValueError as error:
        raise Unsafe("The address is not a valid URL.") from error
    if parts.scheme != "https":
        raise Unsafe("Only https addresses are allowed.")
    if parts.username or parts.password:
        raise Unsafe("The address may not carry a user or password.")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise Unsafe("The address has no host.")
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not public_ip(host):
        raise Unsafe("The address is not a public one.")
    path = parts.path or "/"
    return host, port, path + (f"?{parts.query}" if parts.query else "")


Resolver = Callable[..., list]


def _resolve(host, port, type=socket.SOCK_STREAM):
    return socket.getaddrinfo(host, port, type=type)


def tls_context() -> ssl.SSLContext:
    """The certificate checks of a post: the system's trusted authorities."""
    return ssl.create_default_context()


def resolve_public(host: str, port: int, resolver: Resolver | None = None) -> str:
    """The address to connect to: ``host`` resolved once, every answer public
    (one inner answer among public ones is refused too: the connection could
    be made to either)."""
    try:
        answers = (resolver or _resolve)(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Unsafe("The host name does not resolve.") from error
    addresses = [info[4][0] for info in answers]
    if not addresses:
        raise Unsafe("The host name does not resolve.")
    if not all(public_ip(address) for address in addresses):
        raise Unsafe("The host name resolves to an address that is not public.")
    return addresses[0]


class _PinnedConnection(http.client.HTTPSConnection):
    """HTTPS to a fixed address, with SNI and the certificate check for the host's name."""

    def __init__(self, host, port, address, context, timeout):
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    resolver: Resolver | None = None,
    context: ssl.SSLContext | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> tuple[int, bytes]:
    """Post ``body`` to ``url`` after the checks above. Returns the status and
    at most ``MAX_ANSWER`` bytes of the answer; ``Unsafe`` if not allowed,
    ``OSError`` for a network failure."""
    if len(body) > MAX_BODY:
        raise Unsafe("The message is too large.")
    host, port, path = check_url(url)
    address = resolve_public(host, port, resolver)
    connection = _PinnedConnection(host, port, address, context or tls_context(), timeout)
    try:
        connection.request(
            "POST", path, body=body, headers={"User-Agent": "Smoki-Webhook/1", **headers}
        )
        answer = connection.getresponse()
        return answer.status, answer.read(MAX_ANSWER)
    finally:
        connection.close()


def message(kind: str, event: dict, *, secret: str = "", msg_id: str = "") -> tuple[bytes, dict]:
    """The body and headers of one event for a ``kind`` of endpoint. ``event``
    holds ``type``, ``title``, ``text`` and ``url`` (what the email says)."""
    if kind == DISCORD:
        content = f"**{event['title']}**\n{event['text']}\n{event['url']}"[:2000]
        return _json({"content": content, "allowed_mentions": {"parse": []}}), _JSON
    if kind == SLACK:
        return _json({"text": f"*{event['title']}*\n{event['text']}\n<{event['url']}>"}), _JSON
    from standardwebhooks import Webhook

    now = datetime.now(UTC)
    payload = {"type": event["type"], "timestamp": now.isoformat(), "data": event}
    body = _json(payload)
    signature = Webhook(secret).sign(msg_id, now, body.decode())
    return body, {
        **_JSON,
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signature,
    }


_JSON = {"Content-Type": "application/json"}


def _json(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()
