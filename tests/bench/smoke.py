"""What the benchmarks' smoke runs share (tests/unit/test_bench_smoke.py and
tests/integration/test_bench_smoke_*.py): running a benchmark as ``python -m`` in a child,
and reading the rows of the Markdown tables it reports. The smoke runs assert that a script
runs through and reports figures, never what the figures are."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from tests.conftest import free_port
from tests.data import REPO

EVERY_SMOKE_RUN = os.environ.get("KG_BENCH_SMOKE_ALL") == "1"
"""Whether this run is make bench-smoke's, which runs each smoke run at its fullest: sources
--load on every input (two servers each, six minutes; not in make test, whose 20 minutes
cannot give it), import_formats on every format with CSV again last."""

_NUMBER = re.compile(r"[-+~]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?[×x%]?")


def run_bench(
    module: str, *args: object, env: Mapping[str, str] | None = None, timeout: float = 300
) -> str:
    """Run ``python -m tests.bench.MODULE ARGS`` from the repository with ``env`` (default: this
    process's, without NEO4J_*); return its standard output. Fails the test, with the child's
    standard error, when it exits with another code than 0; its wall and CPU time go to
    stderr."""
    if env is None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    command = [sys.executable, "-m", f"tests.bench.{module}", *map(str, args)]
    began, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        command, cwd=REPO, env=dict(env), capture_output=True, text=True, timeout=timeout
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(
        f"{module}: {time.monotonic() - began:.1f} s wall, {cpu:.1f} s CPU of its process tree "
        f"(load {os.getloadavg()[0]:.1f})",
        file=sys.stderr,
    )
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}"
    return done.stdout


def own_server_env(home: Path) -> dict[str, str]:
    """A child's environment for a local server of its own under ``home``: free ports, a
    small heap and page cache, and no NEO4J_* or KG_* of this process."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
    bolt = free_port()
    http = free_port()
    while http == bolt:
        http = free_port()
    return {
        **base,
        "KG_HOME": str(home),
        "KG_BOLT_PORT": str(bolt),
        "KG_HTTP_PORT": str(http),
        "KG_HEAP": "1g",
        "KG_PAGECACHE": "512m",
    }


def table_rows(text: str, first: str) -> list[list[str]]:
    """The cells after the first of every Markdown table row of ``text`` whose first cell is
    ``first``. Fails the test when no row starts so."""
    found = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and cells[0] == first:
            found.append(cells[1:])
    assert found, f"no table row {first!r} in:\n{text}"
    return found


def is_number(cell: str) -> bool:
    """Whether ``cell`` is a figure as the reports write them: 1,234, 0.5, 3.2×, 12%, 1.0e-06."""
    return _NUMBER.fullmatch(cell.strip("`* ")) is not None


def assert_figures(text: str, rows: Mapping[str, int]) -> None:
    """Assert that each table row of ``text`` whose first cell ``rows`` names (there may be
    several) has at least that many cells holding a figure."""
    for first, count in rows.items():
        for cells in table_rows(text, first):
            found = [cell for cell in cells if is_number(cell)]
            assert len(found) >= count, f"row {first!r} has {found}, wanted {count} figures"
