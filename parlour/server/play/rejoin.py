"""Rejoin links: a seat taken on one device, used on another (until accounts exist).

The holder of a person seat may ask for its *rejoin secret* and share it with themselves as
``/t/<table>#rejoin=<secret>`` (after ``#``: browsers never send it to a server). The page
that opens the link trades the secret for a *device token* of the same seat
(``POST /api/tables/<table>/rejoin``).

Nothing new is stored: both values are HMAC-SHA256 of the table, the seat and the hash of
its seat token, keyed by the server's secret ``rejoin-key`` (made once per database, like
the deal key), with a different label each. So the secret is distinct from every token, it
cannot be worked out without the key, a restarted server knows the same ones, and when the
seat changes hands (its person leaves, the creator frees it) its token hash changes and
every link and device token of the old holder dies with it. See ``docs/protocol.md``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

SECRET_PATTERN = r"^[A-Za-z0-9_-]{22}$"  # 128 bits, URL-safe base64 without padding


def _derive(key: str, label: str, table_id: str, seat: int, token_hash: str) -> str:
    mac = hmac.new(key.encode(), f"{label}|{table_id}|{seat}|{token_hash}".encode(),
                   hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:16]).decode().rstrip("=")


def rejoin_secret(key: str, table_id: str, seat: int, token_hash: str) -> str:
    """The rejoin secret of ``seat`` while the token whose hash is ``token_hash`` holds it."""
    return _derive(key, "rejoin", table_id, seat, token_hash)


def device_token(key: str, table_id: str, seat: int, token_hash: str) -> str:
    """The seat token a rejoin secret is traded for (a second token of the same seat)."""
    return _derive(key, "device", table_id, seat, token_hash)
