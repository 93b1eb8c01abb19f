"""Bulk mode's stage alone: the files parsed and staged into a scratch DuckDB store, as
``kg load --bulk`` does before its split, timed or under cProfile; no server.

    python -m tests.bench.stage_profile FILE... [--id-scheme arxiv] [--workers 2] [--profile 25]

Prints the seconds of the stage (``load_files`` into an ``ImportSink``) and of the split and
CSVs (``write_csv``); with ``--profile N``, cProfile's N top entries by own time for the
stage (the profiler slows it about 1.5×: read the shares, not the seconds; it sees this
process alone, not the stage's worker processes). ``--workers`` is the stage's worker
processes (``kg load --bulk --stage-workers``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import tempfile
import time
from pathlib import Path

from kg.answers.loads import LoadSummary
from kg.knowledge_graph import STAGE_MEMORY
from kg.load.import_sink import ImportSink
from kg.load.pipeline import RejectsFile, input_files, input_format, load_files
from tests.streams import stream_settings


def stage(paths: list[Path], id_scheme: str, top: int, workers: int = 1) -> dict[str, float]:
    """Stage ``paths`` and write their import CSVs in a temporary folder; return the seconds
    of each, printing cProfile's ``top`` entries for the stage when ``top`` is above 0."""
    folder = Path(tempfile.mkdtemp(prefix="kg-stage-"))
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
        finally:
            sink.close()
            rejects.close()
        if top:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(top)
        return {"stage_seconds": staged, "csv_seconds": written}
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


if __name__ == "__main__":
    main()
