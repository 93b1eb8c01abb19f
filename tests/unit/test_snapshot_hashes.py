"""The snapshot hashes the loader keeps are named one by one in snapshots.cypher (a `SET s +=
map` would make its plan hold an Eager), so the two lists must agree."""

from __future__ import annotations

import re

import pytest

from kg import queries
from kg.load.rows import SNAPSHOT_HASHES, snapshot_row
from loaders.records import SnapshotRecord


def _record(hashes: dict[str, str]) -> SnapshotRecord:
    return SnapshotRecord(
        key="sha256:" + "0" * 64,
        kind="paper_json",
        source="x.json",
        sha256="0" * 64,
        hashes=hashes,
    )


def test_snapshots_cypher_sets_every_kept_hash() -> None:
    text = queries.load.snapshots.cypher
    read = set(re.findall(r"row\.hashes\.hash_(\w+)", text))
    written = set(re.findall(r"s\.hash_(\w+) = ", text))
    assert read == written == set(SNAPSHOT_HASHES)


def test_a_stated_hash_becomes_its_property() -> None:
    row = snapshot_row(_record({"claims": "a" * 64}))
    assert row["hashes"] == {"hash_claims": "a" * 64}


def test_a_hash_of_an_unknown_part_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"hashes of novel, which cypher/load/snapshots\.cypher"):
        snapshot_row(_record({"novel": "b" * 64}))
