"""Leases that keep `kg unmerge` and loads apart, held in the graph itself.

A load writes in many transactions, batch after batch and file after file; an unmerge
removes a merged paper and records a split in one. Run at once, the unmerge could remove
what the load's first batches wrote while its later batches already write the split keys:
a graph neither order gives. So each takes a lease first (``lease_take``): loads share
theirs, and run side by side as before; an unmerge takes one that no load may hold, and
waits for every load to end, as a load waits for an unmerge. The lease is a node in the
database, not a file in KG_HOME, so it holds for every process that writes the graph, on
one machine or many, on a server or a cluster. A lease its holder stopped renewing (a
process killed with -9) goes stale after its ttl and is removed by the next taker.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from kg import queries
from kg.database import Database
from kg.errors import ConnectionFailed, GraphBusy, KGError, LoadInterrupted

__all__ = ["LOAD_TTL", "UNMERGE_TTL", "Lease", "held"]

LeaseKind = Literal["load", "unmerge"]

LOAD_TTL = 600
"""Seconds a load's lease lasts without renewal; a load renews it at least every minute
(``Lease.renew``), so only a load that stopped (killed) loses it."""
UNMERGE_TTL = 120
"""Seconds an unmerge's lease lasts: an unmerge is one short transaction."""
_RENEW_EVERY = 60.0
_POLL = 0.2

_EXCLUDES: dict[LeaseKind, list[str]] = {"load": ["unmerge"], "unmerge": ["load", "unmerge"]}
_TTL: dict[LeaseKind, int] = {"load": LOAD_TTL, "unmerge": UNMERGE_TTL}


@dataclass
class Lease:
    """A lease taken with ``held``: renew it while the work goes on."""

    graph: Database
    key: str
    renewed: float = field(default_factory=time.monotonic)

    def renew(self) -> None:
        """Renew the lease when the last renewal is a minute old (cheap to call often)."""
        if time.monotonic() - self.renewed >= _RENEW_EVERY:
            queries.load.lease_renew.run(self.graph, lease=self.key)
            self.renewed = time.monotonic()


@contextlib.contextmanager
def held(graph: Database, kind: LeaseKind, wait: float) -> Iterator[Lease]:
    """Hold a lease of ``kind`` for the block: a load's while no unmerge runs, an unmerge's
    while no load or other unmerge runs, waiting up to ``wait`` seconds for those to end.

    Raises GraphBusy when they have not ended by then.
    """
    key = uuid.uuid4().hex
    deadline = time.monotonic() + wait
    while True:
        rows = queries.load.lease_take.run(
            graph, lease=key, kind=kind, excludes=_EXCLUDES[kind], ttl=_TTL[kind]
        )
        holders = list(rows[0]["holders"]) if rows else []
        if not holders:
            break
        if time.monotonic() >= deadline:
            raise GraphBusy(kind, holders, wait)
        time.sleep(_POLL)
    try:
        yield Lease(graph, key)
    except BaseException as exc:
        cause = exc.cause if isinstance(exc, LoadInterrupted) else exc
        # When Neo4j went away, giving the lease up would wait out the retries again for
        # nothing: it goes stale after its ttl
        if not isinstance(cause, ConnectionFailed):
            _release(graph, key)
        raise
    _release(graph, key)


def _release(graph: Database, key: str) -> None:
    """Give the lease up; a failure leaves it to go stale, and hides no error of the work."""
    with contextlib.suppress(KGError):
        queries.load.lease_release.run(graph, lease=key)
