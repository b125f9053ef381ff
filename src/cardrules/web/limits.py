"""What one client may cost the web table: rate limits and the budget of tables that play
on their own (plain library code, no web package).

A client is limited per WebSocket and per address (its IP address as the server sees
it: behind a proxy, every client has the proxy's), each with a token bucket: ``rate``
messages a second on average, ``burst`` at once.  A message over a limit is answered
with an error and not read; a new table or a claimed seat over its limit is answered
with 429.  :class:`Limits` holds the figures (``cardrules serve`` takes them as options).
"""

from __future__ import annotations

import time
from typing import Final

import attrs

__all__ = ["DEFAULT_LIMITS", "Bucket", "Limits", "PerAddress"]


@attrs.frozen
class Limits:
    """The web table's limits (see :doc:`/web`).

    ``messages``: messages a second one WebSocket may send on average (``burst`` at
    once, ``messages_burst``); ``address_messages``: the same for all the WebSockets of
    one address together; ``tables``: new tables (and claimed seats) one address may
    make a minute on average, ``tables_burst`` at once; ``autoplay_tables``: how many
    tables whose computers play on with no person connected (``autoplay``) play at
    once, the others waiting their turn; ``flood``: refused messages in a row after
    which a WebSocket is closed (code 1008)."""

    messages: float = 50.0
    messages_burst: int = 200
    address_messages: float = 500.0
    address_messages_burst: int = 1000
    tables: float = 30.0
    tables_burst: int = 60
    autoplay_tables: int = 2
    flood: int = 200

    def __attrs_post_init__(self) -> None:
        for name in ("messages", "address_messages", "tables"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")
        for name in ("messages_burst", "address_messages_burst", "tables_burst", "flood"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)!r}")
        if self.autoplay_tables < 0:
            raise ValueError(f"autoplay_tables must be 0 or more, not {self.autoplay_tables!r}")


#: the limits ``cardrules serve`` uses unless told otherwise
DEFAULT_LIMITS: Final = Limits()


class Bucket:
    """A token bucket: :meth:`take` succeeds at most ``burst`` times at once and ``rate``
    times a second on average."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class PerAddress:
    """One :class:`Bucket` per address, forgetting the addresses whose bucket has filled
    up again once there are many (so a stream of new addresses costs bounded memory)."""

    def __init__(self, rate: float, burst: int, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.keep:
                now = time.monotonic()
                self.buckets = {a: b for a, b in self.buckets.items() if not b.full(now)}
                if len(self.buckets) >= self.keep:  # all busy: the oldest half goes
                    self.buckets = dict(list(self.buckets.items())[self.keep // 2 :])
            bucket = self.buckets[address] = Bucket(self.rate, self.burst)
        return bucket.take()
