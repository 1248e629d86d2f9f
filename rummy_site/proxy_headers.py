"""The player's address and scheme behind a reverse proxy, believed only from the proxy itself.

A request whose immediate peer (scope["client"]) is in settings.TRUSTED_PROXIES gets its client address from
the LAST value of X-Forwarded-For (the one that proxy added; anything before it is what the client claimed)
and its scheme from X-Forwarded-Proto (http/https, ws/wss for a websocket). From any other peer both headers
are ignored: the address is the peer's, so nobody who reaches a daphne port directly chooses his own. The
rate limits (accounts/throttle.py) read that address. deploy/haproxy.cfg overwrites both headers."""

import ipaddress

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(entries) -> tuple[Network, ...]:
    """`TRUSTED_PROXIES` entries (addresses or CIDR networks) as networks; a bad one stops the start."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError as error:
            raise ImproperlyConfigured(f"TRUSTED_PROXIES: {entry!r} is not an address or a network") from error
    return tuple(networks)


def _address(text: str) -> str | None:
    """The address written plainly (an IPv4-mapped IPv6 one as IPv4), or None if `text` is not one."""
    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    return str(getattr(ip, "ipv4_mapped", None) or ip)


class ProxyHeadersMiddleware:
    """ASGI middleware for http and websocket scopes (others pass through untouched)."""

    def __init__(self, app, trusted=None):
        self.app = app
        self.trusted = trusted_networks(settings.TRUSTED_PROXIES if trusted is None else trusted)

    def is_trusted(self, peer) -> bool:
        host = _address(peer[0]) if peer else None
        if host is None:  # a Unix socket, or no peer known
            return False
        ip = ipaddress.ip_address(host)
        return any(ip.version == net.version and ip in net for net in self.trusted)

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and self.trusted and self.is_trusted(scope.get("client")):
            scope = dict(scope)
            headers = {}
            for name, value in scope.get("headers", ()):
                if name in (b"x-forwarded-for", b"x-forwarded-proto"):
                    # Repeated headers are one comma-separated list (RFC 9110 §5.3)
                    headers.setdefault(name, []).append(value.decode("latin-1"))
            forwarded_for = ",".join(headers.get(b"x-forwarded-for", [])).split(",")[-1]
            if (client := _address(forwarded_for)) is not None:
                scope["client"] = (client, 0)
            proto = ",".join(headers.get(b"x-forwarded-proto", [])).split(",")[-1].strip().lower()
            if proto in ("http", "https"):
                secure = proto == "https"
                scope["scheme"] = ("wss" if secure else "ws") if scope["type"] == "websocket" else proto
        return await self.app(scope, receive, send)
