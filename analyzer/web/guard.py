"""Answer only this machine's own pages: the loopback ``Host`` names, same-origin writes.

The table listens on 127.0.0.1, but a page on another site could still reach it through the
visitor's browser: by DNS rebinding (its own name made to resolve to 127.0.0.1, so requests
carry ``Host: that-name``) or by a cross-site form or fetch that POSTs to the table. So
every request must name a loopback host, and a request that changes state (POST and the
like) must come from a page of the table itself: its ``Origin`` (or, without one, its
``Sec-Fetch-Site``) must say so. Refusals are the app's JSON errors (HTTP 403).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def host_name(value: str) -> str:
    """The host of a ``Host`` header value, without its port, lower case.

    >>> host_name("LocalHost:8080"), host_name("[::1]:80"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def refusal(headers: dict[str, str], method: str, hosts: Iterable[str]) -> str | None:
    """Why a request with these (lower-case) ``headers`` is refused, or None."""
    hosts = tuple(hosts)
    host = host_name(headers.get("host", ""))
    if host not in hosts:
        return (f"this table answers only at {' / '.join(hosts)}, not at host {host!r} "
                f"(open it from the address the command printed)")
    if method.upper() in SAFE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin)
        if origin == "null" or parts.scheme not in ("http", "https") or \
                (parts.hostname or "") not in hosts:
            return f"cross-origin request refused (from {origin})"
        return None
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"cross-site request refused (Sec-Fetch-Site: {site})"
    return None


class LoopbackOnly:
    """ASGI middleware: :func:`refusal` for every HTTP request, before the app sees it."""

    def __init__(self, app: Any, hosts: Iterable[str] = LOOPBACK):
        self.app = app
        self.hosts = tuple(hosts)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope.get("headers", [])}
            why = refusal(headers, scope.get("method", "GET"), self.hosts)
            if why is not None:
                body = json.dumps({"error": why}).encode()
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"cache-control", b"no-store"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
