"""The load progress bar's byte count: how far the loader has read into the current file."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from kg.cli.load_commands import ReadPosition

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fdinfo").is_dir(), reason="needs Linux /proc/self/fdinfo"
)


def _position_after(reading: ReadPosition) -> int | None:
    reading.checked = 0.0  # the reading is throttled to one look every 0.2 s
    return reading.position()


def test_position_follows_the_bytes_read(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_bytes(b"x" * 100_000)
    reading = ReadPosition()
    reading.follow(path)
    with path.open("rb", buffering=0) as handle:
        assert _position_after(reading) == 0
        handle.read(30_000)
        assert _position_after(reading) == 30_000
        handle.read(70_000)
        assert _position_after(reading) == 100_000
    assert reading.finish() == 100_000
    assert reading.position() is None


def test_a_gzipped_file_counts_compressed_bytes(tmp_path: Path) -> None:
    path = tmp_path / "data.txt.gz"
    path.write_bytes(gzip.compress(os.urandom(200_000)))
    size = path.stat().st_size
    reading = ReadPosition()
    reading.follow(path)
    with gzip.open(path, "rb") as handle:
        handle.read(100_000)
        halfway = _position_after(reading)
        assert halfway is not None
        assert 0 < halfway <= size
        handle.read()
        assert _position_after(reading) == size


def test_a_file_not_open_keeps_the_last_position(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_bytes(b"y" * 10)
    reading = ReadPosition()
    reading.follow(path)
    assert _position_after(reading) == 0
