"""Bulk mode's stage alone: the files parsed and staged into a scratch DuckDB store, as
``kg load --bulk`` does before its split, timed or under cProfile; no server.

    python -m tests.bench.stage_profile FILE... [--id-scheme arxiv] [--workers 2] [--profile 25]

Prints the seconds of the stage (``load_files`` into an ``ImportSink``) and of the split and
CSVs (``write_csv``), then the scratch folder's bytes: at its peak (sampled every second, and
once the CSVs are written, when every file is there), and once the CSVs are written, what the
CSVs, the records file, the stage's tables and DuckDB's file each take. With ``--profile N``,
cProfile's N top entries by own time for the stage (the profiler slows it about 1.5×: read
the shares, not the seconds; it sees this process alone, not the stage's worker processes).
``--workers`` is the stage's worker processes (``kg load --bulk --stage-workers``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import tempfile
import threading
import time
from pathlib import Path

from kg.answers.loads import LoadSummary
from kg.knowledge_graph import STAGE_MEMORY
from kg.load.import_sink import ImportSink
from kg.load.pipeline import RejectsFile, input_files, input_format, load_files
from tests.streams import stream_settings


def _bytes(folder: Path, pattern: str = "*") -> int:
    """The bytes of the files under ``folder`` that match ``pattern`` (files that vanish
    while counted count nothing)."""
    total = 0
    for path in folder.rglob(pattern):
        try:
            if path.is_file():
                total += path.stat().st_size
        except OSError:
            continue
    return total


class _Peak:
    """The most bytes ``folder`` held, sampled every ``every`` seconds in a thread."""

    def __init__(self, folder: Path, every: float = 1.0) -> None:
        self.folder = folder
        self.most = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, args=(every,), daemon=True)
        self._thread.start()

    def _watch(self, every: float) -> None:
        while not self._stop.wait(every):
            self.sample()

    def sample(self) -> None:
        self.most = max(self.most, _bytes(self.folder))

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        self.sample()
        return self.most


def stage(paths: list[Path], id_scheme: str, top: int, workers: int = 1) -> dict[str, float]:
    """Stage ``paths`` and write their import CSVs in a temporary folder; return the seconds
    of each and the scratch folder's bytes (``scratch_peak`` and, once the CSVs are written,
    ``csvs``, ``records``, ``tables``, ``duckdb``), printing cProfile's ``top`` entries for
    the stage when ``top`` is above 0."""
    folder = Path(tempfile.mkdtemp(prefix="kg-stage-"))
    peak = _Peak(folder)
    try:
        stream = stream_settings(id_scheme=id_scheme)
        inputs = input_files(paths)
        formats = [input_format(item, "auto", stream.strict) for item in inputs]
        rejects = RejectsFile(folder / "rejects.jsonl")
        sink = ImportSink(folder / "stage.duckdb", STAGE_MEMORY, workers)
        profiler = cProfile.Profile()
        try:
            began = time.monotonic()
            if top:
                profiler.enable()
            load_files(sink, inputs, formats, LoadSummary(), rejects, stream)
            profiler.disable()
            staged = time.monotonic() - began
            began = time.monotonic()
            sink.write_csv(folder / "csv")
            written = time.monotonic() - began
            sizes = {
                "scratch_peak": peak.stop(),
                "csvs": _bytes(folder / "csv"),
                "records": _bytes(folder, "stage.duckdb.records"),
                "tables": _bytes(folder, "*.parquet"),
                "duckdb": _bytes(folder, "stage.duckdb"),
            }
        finally:
            peak.stop()
            sink.close()
            rejects.close()
        if top:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(top)
        return {"stage_seconds": staged, "csv_seconds": written, **sizes}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--id-scheme", default="arxiv")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--workers", type=int, default=1, metavar="N")
    args = parser.parse_args(argv)
    found = stage(args.paths, args.id_scheme, args.profile, args.workers)
    print(f"stage {found['stage_seconds']:.2f} s, split and CSVs {found['csv_seconds']:.2f} s")
    mib = {
        name: found[name] / 2**20
        for name in ("scratch_peak", "csvs", "records", "tables", "duckdb")
    }
    print(
        f"scratch at its peak {mib['scratch_peak']:.3f} MiB; with the CSVs written: CSVs "
        f"{mib['csvs']:.3f} MiB, records file {mib['records']:.3f} MiB, stage tables "
        f"{mib['tables']:.3f} MiB, DuckDB file {mib['duckdb']:.3f} MiB"
    )


if __name__ == "__main__":
    main()
