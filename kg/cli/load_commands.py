"""`kg load`: stream files into the graph."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import click
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from kg.answers import BulkSummary, LoadSummary
from kg.cli.app import count, emit_json, face_default, face_option, json_option, main, open_graph
from kg.cli.tables import Column, clean, plural, print_table, progress_bar, say
from kg.knowledge_graph import KnowledgeGraph
from kg.load.pipeline import STAGE_WORKERS, STAGE_WORKERS_MAX, FormatChoice
from loaders.formats import FORMATS, IdScheme
from loaders.hepth_abs import ABS_SUFFIXES


@main.command("load")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", *FORMATS]),
    default=face_default(KnowledgeGraph.load, "fmt"),
    show_default=True,
    help="Input format; auto looks at the content, not the name. `kg formats` lists them.",
)
@face_option(KnowledgeGraph.load, "batch_size", "Rows per transaction.", type=count())
@click.option("--strict", is_flag=True, help="Stop at the first bad record.")
@click.option(
    "--id-scheme",
    type=click.Choice(get_args(IdScheme)),
    default=face_default(KnowledgeGraph.load, "id_scheme"),
    show_default=True,
    help="How edge-list ids read: arXiv ids, or SNAP's integers as hep-th or hep-ph ids "
    "(snap-hepth: 1001 -> hep-th/0001001; snap-hepph: 1001 -> hep-ph/0001001).",
)
@click.option(
    "--rejects",
    type=click.Path(path_type=Path),
    default=face_default(KnowledgeGraph.load, "rejects_path"),
    show_default=True,
    help="Where bad records go, one JSON line each (only written when there are some).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Load files again even when their exact content was loaded whole before.",
)
@click.option(
    "--bulk",
    is_flag=True,
    help="Empty local database only: build it with neo4j-admin import (stops and restarts "
    "the local server). Same graph, much faster.",
)
@click.option(
    "--stage-memory",
    metavar="SIZE",
    help="With --bulk: the memory of the staging store (DuckDB), e.g. 512MB or 4GB; past it, "
    "it spills to its scratch folder under $KG_HOME/bulk.  "
    f"[default: {face_default(KnowledgeGraph.bulk_load, 'stage_memory')}]",
)
@click.option(
    "--stage-workers",
    type=count(STAGE_WORKERS),
    metavar="N",
    help="With --bulk: processes that stage large arXiv snapshot files side by side "
    "(1: in the loader's own process).  [default: the machine's cores, at most "
    f"{STAGE_WORKERS_MAX}]",
)
@click.option(
    "--keep-apart",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A file of splits to keep, as `kg merges --kept-apart --json` prints it (after "
    "`kg db reset` or with --bulk, so splits made with `kg unmerge` still hold). Keys it "
    "keeps apart that are one paper in the graph are taken apart.",
)
@click.option(
    "--since",
    type=click.Path(path_type=Path, dir_okay=False),
    help="An older snapshot of the one file named, loaded whole before: write only the "
    "records that changed since it (an incremental load).",
)
@json_option
@click.pass_context
def load(
    ctx: click.Context,
    paths: tuple[Path, ...],
    fmt: FormatChoice,
    batch_size: int,
    strict: bool,
    id_scheme: IdScheme,
    rejects: Path,
    force: bool,
    bulk: bool,
    stage_memory: str | None,
    stage_workers: int | None,
    keep_apart: Path | None,
    since: Path | None,
    as_json: bool,
) -> None:
    """Load map pages, paper JSON records, arXiv snapshots, edge lists or .abs files.

    Streams each file, validates every record, and upserts in batches: loading the same
    files again, or in another order, gives the same graph. Bad records are reported as
    file:line: reason and go to the rejects file; the exit code is 1 if any were rejected.
    A file whose exact content was loaded whole before is skipped (--force loads it again).
    A path of - reads standard input.

    With --bulk (a first load of a large set into an empty database) the import tool builds
    the store from what no load rule touches, and the online writer adds the rest.

    With --since OLD, a newer snapshot of a source loads incrementally: only its records
    that OLD does not state as they are get written.

    Example: kg load examples/map my-pages/*.txt
    """
    _check_choices(bulk, since, stage_memory, stage_workers)
    # What a load and a bulk load share; each adds its own progress hook.
    options: dict[str, Any] = {
        "fmt": fmt,
        "batch_size": batch_size,
        "strict": strict,
        "id_scheme": id_scheme,
        "rejects_path": rejects,
        "keep_apart": keep_apart,
    }
    stage = {"stage_memory": stage_memory, "stage_workers": stage_workers}
    bulk_only = {k: v for k, v in stage.items() if v is not None} if bulk else None
    with _deferred_interrupt() as pressed, _load_bar(as_json) as progress:
        shown = _LoadProgress(progress, pressed, list(paths))
        try:
            summary, bulk_summary = _run_load(
                ctx, list(paths), shown, bulk_only, force, since, options
            )
        except (_Interrupted, KeyboardInterrupt):
            progress.stop()
            click.echo(
                f"Error: interrupted (Ctrl-C) after reading {shown.read:,} records; what was "
                "written stays in the graph. Rerun the same command to finish (loads are "
                "idempotent)",
                err=True,
            )
            ctx.exit(INTERRUPTED_EXIT)
    _report_load(ctx, summary, bulk_summary, as_json)


def _check_choices(
    bulk: bool, since: Path | None, stage_memory: str | None, stage_workers: int | None
) -> None:
    """Raise click.UsageError for options that do not go together."""
    if since is not None and bulk:
        raise click.UsageError(
            "--since loads a newer snapshot into a graph that holds the older one, and --bulk "
            "needs an empty database: drop one of them"
        )
    if stage_memory is not None and not bulk:
        raise click.UsageError("--stage-memory sizes bulk mode's staging store: add --bulk")
    if stage_workers is not None and not bulk:
        raise click.UsageError("--stage-workers sets bulk mode's staging processes: add --bulk")


def _run_load(
    ctx: click.Context,
    paths: list[Path],
    shown: _LoadProgress,
    bulk: dict[str, Any] | None,
    force: bool,
    since: Path | None,
    options: dict[str, Any],
) -> tuple[LoadSummary, BulkSummary | None]:
    """Run the load with ``options`` (a bulk load with the options of ``bulk`` too, when
    given), showing it on ``shown``; return its summary, and a bulk load's own."""
    if bulk is not None:
        found = KnowledgeGraph.bulk_load(
            paths, on_stage=shown.stage, on_progress=shown.advance, **options, **bulk
        )
        return found.load, found
    summary = open_graph(ctx).load(
        paths,
        on_file=shown.next_file,
        on_progress=shown.advance,
        force=force,
        since=since,
        **options,
    )
    return summary, None


def _load_bar(as_json: bool) -> Progress:
    """Return the progress display of a load: its stage or file, bytes and records."""
    return progress_bar(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[records]:,} records"),
        as_json=as_json,
    )


class _LoadProgress:
    """What a load shows as it runs: the bytes read of all its files and the records read,
    and where a Ctrl-C (``pressed``) stops it."""

    def __init__(self, progress: Progress, pressed: threading.Event, paths: list[Path]) -> None:
        self.progress = progress
        self.pressed = pressed
        self.reading = ReadPosition()
        self.read = 0
        self.done_before = 0
        total = sum(_size(p) for p in KnowledgeGraph.expand_paths(paths))
        self.task = progress.add_task("loading", total=total or None, records=0)

    def next_file(self, path: Path) -> None:
        """A file starts: the bytes of the one before count as done."""
        self.done_before += self.reading.finish()
        self.reading.follow(path)
        self.progress.update(self.task, description=f"loading {path.name}")

    def advance(self, count: int) -> None:
        """``count`` more records were read. Raises _Interrupted after a Ctrl-C."""
        self.read += count
        if self.pressed.is_set():
            raise _Interrupted  # between two records: no batch is being sent
        records = self.progress.tasks[0].fields["records"] + count
        position = self.reading.position()
        completed = self.done_before + position if position is not None else None
        self.progress.update(self.task, records=records, completed=completed)

    def stage(self, stage: str) -> None:
        """A stage of a bulk load begins."""
        self.progress.update(self.task, description=stage)


def _report_load(
    ctx: click.Context, summary: LoadSummary, bulk_summary: BulkSummary | None, as_json: bool
) -> None:
    """Print what a load did, and end with exit code 1 when a record was rejected, a file
    failed or the rejects file could not be written."""
    if as_json:
        emit_json(bulk_summary.as_dict() if bulk_summary else summary.as_dict())
    else:
        _render_load(summary)
        if bulk_summary:
            stages = ", ".join(f"{k} {v:.1f}s" for k, v in bulk_summary.stages.items())
            say(f"bulk import: {stages}")
            say(
                f"imported {sum(bulk_summary.nodes.values()):,} nodes and "
                f"{sum(bulk_summary.relationships.values()):,} relationships; "
                f"{bulk_summary.online_papers:,} papers and "
                f"{bulk_summary.online_citations:,} citations went through the online writer "
                "(a load rule applies to them)"
            )
    if summary.rejects_error:
        click.echo(f"Error: {clean(summary.rejects_error)}", err=True)
    if summary.rejected or summary.failed or summary.rejects_error:
        ctx.exit(1)


INTERRUPTED_EXIT = 130
"""The exit code of a load ended by Ctrl-C (128 + SIGINT), as shells report it."""


class _Interrupted(Exception):
    """Ctrl-C was pressed: the load stops at the next record it reads."""


@contextlib.contextmanager
def _deferred_interrupt() -> Iterator[threading.Event]:
    """Yield an event set by the first Ctrl-C, which the load checks between records, so
    that Ctrl-C never lands inside the driver mid-batch (which left a BufferError from its
    half-sent buffer beside the KeyboardInterrupt). A second Ctrl-C interrupts at once."""
    pressed = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield pressed  # signals go to the main thread only (a CliRunner in a thread)
        return

    def handle(signum: int, frame: object) -> None:
        if pressed.is_set():
            raise KeyboardInterrupt
        pressed.set()

    previous = signal.signal(signal.SIGINT, handle)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def _size(path: Path) -> int:
    try:
        return (
            # A folder input is its .abs files (its other files are inputs of their own).
            sum(
                p.stat().st_size
                for p in path.rglob("*")
                if p.name.endswith(ABS_SUFFIXES) and p.is_file()
            )
            if path.is_dir()
            else path.stat().st_size
        )
    except OSError:
        return 0


class ReadPosition:
    """How far this process has read into the file being loaded, in bytes on disk: the
    reading position the kernel reports for the newest descriptor open on it (Linux
    /proc/self/fdinfo, as ``pv -d`` does). For a gzipped file that is the compressed offset,
    so progress runs against the size on disk. None where the system does not say."""

    _CHECK_EVERY = 0.2

    def __init__(self) -> None:
        self.target: str | None = None
        self.size = 0
        self.last = 0
        self.checked = 0.0

    def follow(self, path: Path) -> None:
        """Start following ``path``."""
        self.target = os.path.realpath(path)
        self.size = _size(path)
        self.last = 0

    def finish(self) -> int:
        """Stop following the current file; return its size on disk (0 when none)."""
        size, self.target, self.last = self.size, None, 0
        return size

    def position(self) -> int | None:
        """Return the bytes read so far (checked at most every 0.2 s), or None."""
        if self.target is None:
            return None
        now = time.monotonic()
        if now - self.checked < self._CHECK_EVERY:
            return self.last
        self.checked = now
        try:
            descriptors = sorted((int(fd) for fd in os.listdir("/proc/self/fd")), reverse=True)
        except OSError:
            return None
        for fd in descriptors:
            try:
                if os.readlink(f"/proc/self/fd/{fd}") != self.target:
                    continue
                with open(f"/proc/self/fdinfo/{fd}", encoding="ascii") as info:
                    for line in info:
                        if line.startswith("pos:"):
                            self.last = min(int(line.split()[1]), self.size)
                            return self.last
            except (OSError, ValueError):
                continue
        return self.last


def _render_load(summary: LoadSummary) -> None:
    """Print a load's messages, its table of files and what it wrote."""
    for message in summary.failed_messages():
        click.echo(clean(message), err=True)
    for message in summary.reject_messages:
        click.echo(clean(message), err=True)
    if summary.rejected > len(summary.reject_messages):
        click.echo(f"... and {summary.rejected - len(summary.reject_messages):,} more", err=True)
    print_table(
        (
            Column("file", flex=True, cut_left=True),
            Column("format"),
            *(
                Column(name, "right")
                for name in ("read", "papers", "citations", "skipped", "rejected")
            ),
        ),
        (
            [f.path, f.format, f.read, f.papers, f.citations, sum(f.skipped.values()), f.rejected]
            for f in summary.files
        ),
        title=f"loaded in {summary.seconds:.1f}s",
    )
    counts = summary.counts
    say(
        f"created {counts.nodes_created:,} nodes and {counts.relationships_created:,} "
        f"relationships, set {counts.properties_set:,} properties, merged "
        f"{plural(counts.merged, 'duplicate paper')}"
        + (
            f", moved {counts.moved:,} title key{'' if counts.moved == 1 else 's'} to the "
            "paper the identity rule now gives " + ("it" if counts.moved == 1 else "them")
            if counts.moved
            else ""
        )
    )
    _say_load_notes(summary)


def _say_load_notes(summary: LoadSummary) -> None:
    """Say what the table of a load leaves out: older identity rules, skipped facts,
    records carried or unchanged, rejects and failed files."""
    if summary.built_by:
        say(
            f"This graph holds files loaded by {', '.join(map(clean, summary.built_by))}, whose "
            "identity rules differ from this version's (kg 0.7 matches titles anew; kg 0.8 "
            "moves a paper's page known by title only to the paper it belongs to). Rebuild it "
            "for the rules to hold: `kg db reset`, then load the files again."
        )
    if skipped := summary.skipped_sentence():
        say(f"{skipped} (facts of the data the graph does not keep; not errors)")
    if carried := sum(f.carried for f in summary.files):
        say(f"{carried:,} records unchanged since the older snapshot (--since), so not written")
    if unchanged := summary.unchanged:
        say(
            f"{len(unchanged):,} of {len(summary.files):,} files already loaded whole with this "
            "exact content, so skipped (--force loads them again)"
        )
    if summary.rejects_file:
        say(
            f"{summary.rejected:,} records rejected; see {summary.rejects_file}. "
            "Fix them and load the file again: what loaded stays as it is."
        )
    if failed := summary.failed:
        names = "; ".join(clean(line) for line in summary.failed_messages())
        say(
            f"{len(failed):,} of {len(summary.files):,} files failed ({names}). "
            "The other files loaded; fix these and load them again."
        )


@main.command("formats")
@json_option
def formats(as_json: bool) -> None:
    """List the input formats `kg load` reads, and what in a file tells each one.

    A format's name is what --format takes and the kind of the Snapshot its files become.

    Example: kg formats
    """
    rows = [
        {"name": fmt.name, "description": fmt.description, "detection": fmt.detection}
        for fmt in FORMATS.values()
    ]
    if as_json:
        emit_json({"results": rows})
        return
    print_table(
        [Column("name"), Column("what it is", flex=True), Column("told by", flex=True)],
        ([row["name"], row["description"], row["detection"]] for row in rows),
    )
