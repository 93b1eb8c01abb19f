"""The parsing benchmark: the project's parsers alone over input files, no writes.

    python -m tests.bench.parse FILE... [--id-scheme snap-hepth] [--repeat 3]
    python -m tests.bench.parse FILE... --digest      # a hash of every item, to compare runs
    python -m tests.bench.parse FILE... --profile 25  # cProfile's top entries by own time

Each file is parsed ``--repeat`` times in a row, each time in a fresh child process (so
caches start cold, as in a load), and the median time per file is reported with its format
and item count: the same "parse alone" figure as ``tests.bench.ingest`` (iterate every item
the parser yields). ``--digest`` prints a sha256 over every item's type and JSON dump, so two
versions of the parsers can be shown to yield the same records and rejects.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

from loaders.detect import detect_format
from loaders.formats import IdScheme, parse_file


def _parse_once(path: Path, id_scheme: IdScheme, digest: bool) -> dict[str, Any]:
    """Return the time, item count (and digest) of one pass of the parser over ``path``."""
    fmt = detect_format(path)
    hasher = hashlib.sha256()
    items = 0
    began = time.perf_counter()
    cpu_began = time.process_time()
    for item in parse_file(path, fmt, id_scheme):
        items += 1
        if digest:
            hasher.update(type(item).__name__.encode())
            hasher.update(item.model_dump_json().encode())
    seconds = time.perf_counter() - began
    cpu_seconds = time.process_time() - cpu_began
    return {
        "format": fmt,
        "items": items,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "digest": hasher.hexdigest() if digest else None,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _child(path: Path, id_scheme: IdScheme, digest: bool) -> dict[str, Any]:
    """Return ``_parse_once`` run in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.parse", "--child", str(path), "--id-scheme", id_scheme]
        + (["--digest"] if digest else []),
        check=True,
        capture_output=True,
        text=True,
    )
    return cast(dict[str, Any], json.loads(done.stdout))


def _profile(path: Path, id_scheme: IdScheme, top: int) -> None:
    """Print cProfile's ``top`` entries by own time for one pass over ``path``."""
    profiler = cProfile.Profile()
    profiler.enable()
    _parse_once(path, id_scheme, digest=False)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and time (or profile, or digest) the parsers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--id-scheme", default="arxiv", choices=["arxiv", "snap-hepth"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--digest", action="store_true", help="hash every item (slower)")
    parser.add_argument("--profile", type=int, metavar="TOP", help="profile one pass instead")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    scheme = cast(IdScheme, args.id_scheme)
    if args.child:
        print(json.dumps(_parse_once(args.files[0], scheme, args.digest)))
        return
    if args.profile:
        for path in args.files:
            print(f"== {path}")
            _profile(path, scheme, args.profile)
        return
    print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")
    total = total_cpu = 0.0
    for path in args.files:
        runs = [_child(path, scheme, args.digest) for _ in range(args.repeat)]
        seconds = [run["seconds"] for run in runs]
        median = statistics.median(seconds)
        cpu = statistics.median(run["cpu_seconds"] for run in runs)
        total += median
        total_cpu += cpu
        first = runs[0]
        shown = " ".join(f"{s:.2f}" for s in seconds)
        print(
            f"{path.name}: {first['format']} {first['items']:,} items, median {median:.2f} s "
            f"(runs {shown}), CPU {cpu:.2f} s, "
            f"peak RSS {max(r['peak_rss_mb'] for r in runs):.0f} MB"
            + (f", digest {first['digest'][:16]}" if args.digest else "")
        )
        if args.digest and len({run["digest"] for run in runs}) > 1:
            print("  digests differ between runs")
    print(f"total (sum of medians) {total:.2f} s, CPU {total_cpu:.2f} s")


if __name__ == "__main__":
    main()
