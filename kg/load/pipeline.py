"""Loading files into the graph: detect each format, stream and validate, write in batches.

Nothing reads a whole input into memory: a parser yields records one at a time, the
pipeline keeps at most one batch, and rejected records go to a JSON-lines rejects file as
they come. Valid records load whatever else in the file is bad.

Each file found in a folder succeeds or fails on its own: one that cannot be read or
recognised is reported as ``file: reason`` and counted as failed, and the others load. A file
named on the command line that cannot be recognised stops the load before anything is
written: naming it was most likely a mistake (a wrong path or ``--format``), and a partial
load would hide that. When Neo4j goes away mid-load the load ends with LoadInterrupted,
which says how many records were written; every write is an idempotent MERGE, so running the
same command again finishes the load.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Final, Literal, Protocol, runtime_checkable

from kg.answers.loads import FileSummary, KeptApart, LoadSummary
from kg.database import Database
from kg.errors import (
    ConnectionFailed,
    LoadInterrupted,
    ParameterError,
    QueryFailed,
    RecordRejected,
    SourceError,
)
from kg.load import leases
from kg.load.changes import OlderSnapshot
from kg.load.merges import keep_apart as keep_apart_splits
from kg.load.merges import read_kept_apart
from kg.load.neo4j_sink import GraphWriter, WriteBehind
from kg.load.rows import Batch
from kg.load.schema import ensure_schema
from kg.numbers import COUNT, COUNT_OR_ZERO, Bound
from kg.paths import PathArg, as_path, as_paths, optional_path
from loaders.detect import detect_format
from loaders.errors import printable, valid_text
from loaders.formats import FormatName, IdScheme, format_names, parse_file, parse_in_columns
from loaders.hepth_abs import ABS_SUFFIXES
from loaders.records import (
    CitationRecord,
    EdgeChunk,
    PaperRecord,
    ParsedItem,
    Rejected,
    Skipped,
    SnapshotRecord,
    StagedBlock,
)
from loaders.source_file import BlockStage

__all__ = [
    "STAGE_WORKERS",
    "STAGE_WORKERS_MAX",
    "ColumnSink",
    "InputFile",
    "LoadRequest",
    "PlannedLoad",
    "RecordSink",
    "RejectsFile",
    "StreamSettings",
    "as_format",
    "expand_paths",
    "input_files",
    "input_format",
    "load_files",
    "load_paths",
    "load_stream",
    "local_copies",
    "plan_inputs",
    "planned_load",
    "read_files",
    "stage_workers",
]

FormatChoice = FormatName | Literal["auto"]
_SKIPPED_NAMES = ("readme", ".", "manifest")
"""The names (their start, in any case) of files a folder's load leaves out: a README, a
hidden file, and a dump's manifest (OpenAlex's snapshot lists its part files in one)."""

# The arguments as both faces name them, for the hints of the errors about them.
_REJECTS_ARGUMENT = "rejects_path= in Python, --rejects on the command line"
_SINCE_ARGUMENT = "since= in Python, --since on the command line"
_KEEP_APART_ARGUMENT = "keep_apart= in Python, --keep-apart on the command line"


def read_files(since: Path | None, keep_apart: Path | None) -> list[tuple[str, Path | None]]:
    """The files a load reads besides its inputs, each with what it is, for
    ``RejectsFile.check``."""
    return [
        (f"the older snapshot ({_SINCE_ARGUMENT})", since),
        (f"the keep-apart file ({_KEEP_APART_ARGUMENT})", keep_apart),
    ]


def as_format(value: object) -> FormatChoice:
    """Return ``value`` (the parameter ``fmt``) when it is "auto" or a format's name.
    Raises ParameterError naming the formats when it is neither."""
    if value == "auto":
        return "auto"
    for name in format_names():
        if value == name:
            return name
    raise ParameterError(
        f"fmt is {repr(value)[:100]}, not an input format",
        "pass fmt='auto' to tell each file's format from its content, or one of "
        + ", ".join(format_names()),
    )


@dataclass(frozen=True)
class InputFile:
    """One input of a load: its path, and whether it was found in a folder (rather than
    named on the command line)."""

    path: Path
    in_folder: bool = False
    shown: str | None = None
    """What the summary calls it when ``path`` is a copy of a stream (``local_copies``)."""


def input_files(paths: list[Path]) -> list[InputFile]:
    """Return the inputs of ``paths``: files as given, folders expanded in name order.

    The .abs files of a folder (``.abs``, ``.abs.gz``, in any subfolder) are one input, the
    folder itself, read by the hep-th parser; each other file of the folder is an input of its
    own. README files, hidden files, manifests (an OpenAlex snapshot's ``manifest``) and
    rejects files are skipped, and so are FIFOs, sockets and devices. Raises SourceError for
    a path that does not exist.
    """
    found: list[InputFile] = []
    for path in paths:
        if path == STDIN:
            found.append(InputFile(path))
            continue
        if not path.exists():
            if path.is_symlink():
                raise SourceError(
                    f"{path}: a symbolic link that leads nowhere (a loop, or a missing target)",
                    "point the link at a file or folder, or name the file itself",
                )
            raise SourceError(f"{path}: no such file or folder", "check the path")
        if not path.is_dir():
            found.append(InputFile(path))
            continue
        files = sorted(
            p
            for p in path.rglob("*")
            if (p.is_file() or p.is_symlink())
            and not p.name.lower().startswith(_SKIPPED_NAMES)
            and not p.name.endswith(".rejects.jsonl")
        )
        if any(p.name.endswith(ABS_SUFFIXES) for p in files):
            # The hep-th parser reads the .abs files of the folder as one input; every other
            # file is one input of its own, of its own format.
            found.append(InputFile(path))
            files = [p for p in files if not p.name.endswith(ABS_SUFFIXES)]
        found.extend(InputFile(p, in_folder=True) for p in files if p.is_file() or not p.exists())
    return found


STDIN = Path("-")
"""The path that names standard input, as in most command-line tools."""


@contextlib.contextmanager
def local_copies(paths: list[Path]) -> Iterator[list[Path]]:
    """Yield ``paths`` with standard input (``-``) and each named pipe (``/dev/stdin`` when
    data is piped in, ``<(zcat dump.gz)``, a FIFO) replaced by a copy of what it streams, in a
    temporary folder that goes when the block ends.

    A stream can be read once, and a load reads an input three times: to tell its format, to
    hash it (a snapshot is its bytes) and to parse it. The copy needs as much free space in
    the temporary folder (``TMPDIR``) as the stream holds. Raises SourceError for a device
    or socket named as an input, and for standard input that is a terminal.
    """
    streams = [path for path in paths if _is_stream(path)]
    if not streams:
        yield paths
        return
    _refuse_twice(streams)
    try:
        folder = Path(tempfile.mkdtemp(prefix="kg-load-"))
    except OSError as exc:
        raise _copy_error(streams[0], Path(tempfile.gettempdir()), exc) from None
    try:
        copies: dict[Path, Path] = {}
        for number, path in enumerate(streams, 1):
            copy = folder / str(number) / ("stdin" if path == STDIN else path.name or "stream")
            try:
                copy.parent.mkdir()
                with contextlib.ExitStack() as stack:
                    source = (
                        sys.stdin.buffer if path == STDIN else stack.enter_context(path.open("rb"))
                    )
                    target = stack.enter_context(copy.open("wb"))
                    shutil.copyfileobj(source, target, 1 << 20)
            except OSError as exc:
                raise _copy_error(path, folder, exc) from None
            copies[path] = copy
        yield [copies.get(path, path) for path in paths]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _refuse_twice(streams: list[Path]) -> None:
    """Raise SourceError when one stream is named twice (``kg load - -``, or ``-`` and
    ``/dev/stdin``): a stream can be read once, so the second would read nothing."""
    seen: dict[tuple[object, ...], Path] = {}
    for path in streams:
        identity: tuple[object, ...]
        try:
            found = os.fstat(sys.stdin.fileno()) if path == STDIN else path.stat()
            identity = (found.st_dev, found.st_ino)
        except (OSError, ValueError, AttributeError):
            # standard input without a descriptor of its own (a test harness's buffer)
            identity = (str(path),)
        if identity in seen:
            first = seen[identity]
            stdin = STDIN in (path, first)
            what = "standard input" if stdin else f"the stream {printable(path)}"
            named = printable(path if first == path else f"{first} and {path}")
            raise SourceError(
                f"{named}: {what} is named twice, and a stream can be read only once",
                "name it once",
            )
        seen[identity] = path


def _copy_error(path: Path, folder: Path, exc: OSError) -> SourceError:
    """The SourceError of a stream that could not be copied to the temporary folder."""
    what = "standard input" if path == STDIN else printable(path)
    return SourceError(
        f"{what}: cannot copy it to the temporary folder {printable(folder)} "
        f"({exc.strerror or exc})",
        "a stream is copied whole before it loads: free space there, or set TMPDIR to a "
        "folder with room for it (e.g. TMPDIR=/var/tmp kg load -)",
    )


def _is_stream(path: Path) -> bool:
    """True for standard input (``-``) and for a named pipe; SourceError for a path that
    leads to a device or a socket, or for ``-`` when standard input is a terminal."""
    if path == STDIN:
        if sys.stdin is None or sys.stdin.isatty():
            raise SourceError(
                "-: standard input is a terminal, not data",
                "pipe the data in, for example `zcat dump.json.gz | kg load -`",
            )
        return True
    try:
        mode = path.stat().st_mode
    except OSError:
        return False  # a missing path: input_files names it
    if stat.S_ISFIFO(mode):
        return True
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        raise SourceError(
            f"{path}: a device or socket, not a file",
            "name a file or a folder, or pipe the data in with `kg load -`",
        )
    return False


def expand_paths(paths: list[Path]) -> list[Path]:
    """Return the input files: files as given, folders expanded in name order.

    The .abs files of a folder are one input, the folder (see ``input_files``). README files
    and hidden files are skipped. Raises SourceError for a path that does not exist.
    """
    return [item.path for item in input_files(paths)]


def _reason(path: Path, error: SourceError) -> str:
    """Return the error without the path it starts with, for a ``file: reason`` line."""
    text = str(error)
    prefix = f"{path}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


def input_format(
    item: InputFile, fmt: FormatChoice, strict: bool
) -> tuple[FormatName | None, str | None]:
    """Return the format of one input, or None and why it cannot be loaded.

    A file found in a folder that cannot be recognised is a failed file (unless ``strict``);
    any other raises SourceError, so that nothing loads. Public so that every loader of the
    same inputs (``--bulk`` too) can decide the same way, with ``input_files``.
    """
    if item.in_folder and not item.path.exists():
        error = SourceError(
            f"{item.path}: a symbolic link that leads nowhere (a loop, or a missing target)",
            "point the link at a file, or remove it",
        )
        if strict:
            raise error
        return None, _reason(item.path, error)
    if fmt != "auto":
        return fmt, None
    try:
        return detect_format(item.path), None
    except SourceError as exc:
        if strict or not item.in_folder:
            raise
        return None, _reason(item.path, exc)


def plan_inputs(
    paths: list[Path],
    fmt: FormatChoice,
    strict: bool,
    rejects: RejectsFile,
    named: list[Path] | None = None,
    other_files: Sequence[tuple[str, Path | None]] = (),
) -> tuple[list[InputFile], list[tuple[FormatName | None, str | None]]]:
    """Return the inputs of ``paths`` and the format of each (``input_format``'s answers):
    what every load, online or bulk, settles before it writes anything. ``named`` are the
    paths as the user gave them, when ``paths`` holds copies of streams (``local_copies``);
    ``other_files`` the other files the load reads, each with what it is (the ``--since``
    and ``--keep-apart`` files), which the rejects must not overwrite either.

    Raises SourceError for a missing path, a rejects file that could not be written (see
    ``RejectsFile.check``), or an input that ``input_format`` refuses.
    """
    inputs = input_files(paths)
    given = {copy: str(path) for copy, path in zip(paths, named or paths, strict=True)}
    inputs = [
        dataclasses.replace(item, shown=given[item.path])
        if given.get(item.path, str(item.path)) != str(item.path)
        else item
        for item in inputs
    ]
    rejects.check([item.path for item in inputs], other_files)
    return inputs, [input_format(item, fmt, strict) for item in inputs]


def _same_file(target: Path, path: Path) -> bool:
    """True when ``path`` is the file ``target`` (already a realpath): by name, by another
    name, through a link, or as a hard link of it."""
    if target == Path(os.path.realpath(path)):
        return True
    try:
        return os.path.samefile(target, path)
    except OSError:
        return False  # one of them does not exist (yet): not the same file


class RejectsFile:
    """The rejects file, opened on the first reject only, each reject flushed as written so
    that a killed load leaves every reject it saw."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle: IO[bytes] | None = None
        self.saved = 0
        self.lost = 0
        self.error: str | None = None
        """Why rejects could not be written (a full disk, say): the load goes on without."""

    def check(
        self, inputs: list[Path], other_files: Sequence[tuple[str, Path | None]] = ()
    ) -> None:
        """Raise SourceError before anything loads when the rejects file could not be written:
        it names a folder, an input file or one of ``other_files`` (what else the load reads,
        each with what it is: ``("the older snapshot (--since)", path)``), or its folder
        cannot be made or written."""
        # realpath, not Path.resolve: a symlink loop among the inputs must not raise here.
        target = Path(os.path.realpath(self.path))
        if self.path.is_dir():
            raise SourceError(
                f"the rejects file {self.path} is a folder",
                f"name a file for the rejects ({_REJECTS_ARGUMENT}), e.g. rejects.jsonl",
            )
        read = [("one of the input files", path) for path in inputs]
        read += [(what, path) for what, path in other_files if path is not None]
        for what, path in read:
            if _same_file(target, path):
                raise SourceError(
                    f"the rejects file {self.path} is {what}; writing rejects there would "
                    "overwrite it",
                    f"name another file for the rejects ({_REJECTS_ARGUMENT}), e.g. rejects.jsonl",
                )
        folder = target.parent
        existing = next((p for p in (folder, *folder.parents) if p.exists()), None)
        if existing is None or not existing.is_dir() or not os.access(existing, os.W_OK):
            raise SourceError(
                f"the rejects file {self.path}: cannot write in {folder}",
                "name a file in a folder you can write to",
            )

    def written(self) -> str | None:
        """Return the rejects file's path when a reject was written to it, else None."""
        return str(self.path) if self.saved else None

    def add(self, rejected: Rejected) -> None:
        """Write one reject as a JSON line.

        A rejects file that cannot be written (a full disk, a read-only or vanished folder)
        does not stop the load: the valid records matter more. The first failure is kept in
        ``error``, later rejects are counted in ``lost``, and the caller reports it.
        """
        if self.error is not None:
            self.lost += 1
            return
        entry = {
            "file": rejected.origin.path,
            "line": rejected.origin.line,
            "reason": rejected.reason,
            "raw": rejected.raw,
        }
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        try:
            if self.handle is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # Unbuffered: each reject is one write, on disk as soon as it is read, and
                # a write that fails leaves nothing behind to fail again on close.
                self.handle = self.path.open("wb", buffering=0)
            self.handle.write(line.encode("utf-8", "backslashreplace"))
        except OSError as exc:
            self.error = exc.strerror or str(exc)
            self.lost += 1
            self.close()
            return
        self.saved += 1

    def failure(self) -> str | None:
        """Return the one-line error of a rejects file that could not take every reject,
        saying what to do, or None when it took them all."""
        if self.error is None:
            return None
        return (
            f"the rejects file {printable(self.path)}: cannot write it ({self.error}); "
            f"{self.lost:,} rejected record{'' if self.lost == 1 else 's'} "
            f"{'is' if self.lost == 1 else 'are'} not in it. The valid records loaded: free "
            f"space there or name another file ({_REJECTS_ARGUMENT}), and load the same files "
            "again to get every reject (what loaded stays as it is)"
        )

    def close(self) -> None:
        if self.handle is not None:
            handle, self.handle = self.handle, None
            with contextlib.suppress(OSError):
                handle.close()


@dataclass(frozen=True)
class LoadRequest:
    """A load as the face (``KnowledgeGraph.load``, ``KnowledgeGraph.bulk_load``) hands it
    on, with every argument given: the inputs, the files read or written beside them, and
    how to stream them."""

    paths: Iterable[PathArg] | PathArg
    fmt: FormatChoice
    rejects_path: PathArg
    keep_apart: PathArg | None
    since: PathArg | None
    stream: StreamSettings


def load_paths(graph: Database, request: LoadRequest) -> LoadSummary:
    """Run the load ``KnowledgeGraph.load`` describes (its arguments in ``request``)."""
    files = as_paths(request.paths, "paths")
    fmt = as_format(request.fmt)
    splits_file = optional_path(request.keep_apart, "keep_apart")
    older_file = optional_path(request.since, "since")
    stream = request.stream
    rejects_path = request.rejects_path
    with planned_load(files, fmt, rejects_path, stream.strict, splits_file, older_file) as plan:
        ensure_schema(graph)
        writer = GraphWriter(graph)
        if older_file is not None:
            older = _older_snapshot(
                writer, older_file, plan.inputs, plan.formats, fmt, stream.id_scheme
            )
            stream = dataclasses.replace(stream, since=older)
        summary = _load_leased(graph, writer, plan, stream)
        plan.finish(summary)
        return summary


def _load_leased(
    graph: Database, writer: GraphWriter, plan: PlannedLoad, stream: StreamSettings
) -> LoadSummary:
    """Load the planned files through ``writer`` under the load lease, after keeping the
    planned splits apart; return what happened. Raises LoadInterrupted when Neo4j fails."""
    # An unmerge waits for the load to end, and the load for an unmerge (kg.load.leases)
    with leases.held(graph, "load", wait=leases.UNMERGE_TTL + 30) as lease:
        split_titles = keep_apart_splits(graph, plan.splits)
        summary = LoadSummary(counts=writer.counts, built_by=writer.older_identity_rules())
        behind = WriteBehind(writer)
        try:
            if split_titles:  # keys the file keeps apart that merged before come apart
                writer.reconcile(split_titles)
            with behind:
                sink = _Renewing(behind, lease)
                load_files(sink, plan.inputs, plan.formats, summary, plan.rejects, stream)
            if stream.since is not None:
                _follow(writer, summary.files[0], stream.since)
        except (ConnectionFailed, QueryFailed) as exc:
            written = summary.written - behind.unwritten
            raise LoadInterrupted(exc, written, summary.read) from exc
        finally:
            plan.rejects.close()
    return summary


def _follow(writer: GraphWriter, newer: FileSummary, since: OlderSnapshot) -> None:
    """Count what an incremental load carried from the older snapshot into ``newer``, and
    record that the newer snapshot follows it where it restates some of its records."""
    newer.carried = since.carried
    if since.by_line:  # skipped by the parser, but read all the same
        newer.read += newer.carried
    # A newer snapshot that restates none of the older one's records is not
    # linked to it: FOLLOWS says which records it restates (none here), and
    # its own records are described by it (two unrelated map pages, say)
    if newer.snapshot is not None and not newer.unchanged and newer.carried:
        writer.write_follows(newer.snapshot, since.snapshot, newer.carried)


@dataclass
class PlannedLoad:
    """The inputs of a load, planned before anything is written: the files (local copies)
    with their formats, the splits to keep apart, the rejects file, and when it began."""

    inputs: list[InputFile]
    formats: list[tuple[FormatName | None, str | None]]
    splits: list[KeptApart]
    rejects: RejectsFile
    began: float

    def finish(self, summary: LoadSummary) -> None:
        """Record in ``summary`` where the rejects went and how long the load took."""
        summary.rejects_file = self.rejects.written()
        summary.rejects_error = self.rejects.failure()
        summary.seconds = time.monotonic() - self.began


@contextlib.contextmanager
def planned_load(
    files: list[Path],
    fmt: FormatChoice,
    rejects_path: PathArg,
    strict: bool,
    splits_file: Path | None,
    older_file: Path | None = None,
) -> Iterator[PlannedLoad]:
    """Plan a load of ``files`` (``plan_inputs``, ``read_kept_apart``), for as long as the
    local copies of the files it reads are needed; the checks and planning load_paths
    shares with bulk_load.

    Raises SourceError as ``plan_inputs`` and ``read_kept_apart`` do.
    """
    began = time.monotonic()
    rejects = RejectsFile(as_path(rejects_path, "rejects_path"))
    # The same per-file rule for both loads: a file in a folder that cannot be read or
    # recognised fails on its own (reported, exit 1) and the others load.
    with local_copies(files) as copies:
        inputs, formats = plan_inputs(
            copies,
            fmt,
            strict,
            rejects,
            named=files,
            other_files=read_files(older_file, splits_file),
        )
        splits = read_kept_apart(splits_file) if splits_file else []
        yield PlannedLoad(inputs, formats, splits, rejects, began)


def _older_snapshot(
    writer: GraphWriter,
    since: Path,
    inputs: list[InputFile],
    formats: list[tuple[FormatName | None, str | None]],
    choice: FormatChoice,
    id_scheme: IdScheme,
) -> OlderSnapshot:
    """Return the records of ``since``, the older snapshot of the one input, after checking
    that an incremental load can use it. Raises SourceError when it cannot."""
    if len(inputs) != 1:
        raise SourceError(
            f"an incremental load since {since} compares one file with an older snapshot "
            f"of it, and {len(inputs)} inputs were named",
            f"name one file to load since the older snapshot ({_SINCE_ARGUMENT}), or load "
            "without it",
        )
    fmt = formats[0][0]
    if fmt is None:
        raise SourceError(
            f"the older snapshot {since}: the format of {inputs[0].path} cannot be told "
            f"({formats[0][1]})",
            "name the format (fmt= in Python, --format on the command line)",
        )
    if not since.is_file():
        raise SourceError(
            f"the older snapshot {since}: no such file",
            f"name the older file of the source ({_SINCE_ARGUMENT})",
        )
    older_format = detect_format(since) if choice == "auto" else choice
    if older_format != fmt:
        raise SourceError(
            f"the older snapshot {since} is {older_format}, and {inputs[0].path} is {fmt}",
            "name an older snapshot of the same source",
        )
    older = OlderSnapshot.read(since, inputs[0].path, fmt, id_scheme)
    if not writer.loaded_whole(older.snapshot):
        raise SourceError(
            f"the older snapshot {since}: the graph does not hold it whole as this loader "
            "writes it (it was never loaded, some of its records were rejected, or an older "
            "kg loaded it)",
            f"load {since} first, or load {inputs[0].path} without an older snapshot "
            f"({_SINCE_ARGUMENT})",
        )
    return older


class _Renewing:
    """The graph writer, renewing the load's lease before each batch (``Lease.renew``)."""

    def __init__(self, writer: WriteBehind, lease: leases.Lease) -> None:
        self.writer = writer
        self.lease = lease

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        self.writer.write_snapshot(snapshot)

    def write_batch(self, batch: Batch) -> None:
        self.lease.renew()
        self.writer.write_batch(batch)

    def loaded_whole(self, snapshot_key: str) -> bool:
        return self.writer.loaded_whole(snapshot_key)

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        self.writer.mark_loaded_whole(snapshot_key)


class RecordSink(Protocol):
    """Where a record stream goes: the online GraphWriter, or the bulk mode's CSV writer."""

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Take one snapshot."""

    def write_batch(self, batch: Batch) -> None:
        """Take one batch of papers and citations."""

    def loaded_whole(self, snapshot_key: str) -> bool:
        """Return True when every record of this snapshot was loaded before, by this loader
        version: the file can be skipped."""

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        """Record that every record of this snapshot is in."""


@runtime_checkable
class ColumnSink(RecordSink, Protocol):
    """A sink that also takes an edge list's citations in columns (bulk mode's stage): the
    files are parsed with ``parse_in_columns``."""

    def write_edges(self, chunk: EdgeChunk) -> None:
        """Take one chunk of citations, after every batch before it."""

    def block_stage(self, path: Path) -> BlockStage | None:
        """What stages the lines of ``path`` a block at a time, in other processes, when
        the sink does so for this file (``write_staged`` takes its blocks); else None."""

    def write_staged(self, block: StagedBlock) -> None:
        """Take one block its ``block_stage`` staged, after every batch before it."""


STAGE_WORKERS: Final = Bound(1, 256)
"""The worker processes a bulk load's stage may be given (``stage_workers``)."""
STAGE_WORKERS_MAX: Final = 8
"""At most this many worker processes stage a bulk load's large arXiv snapshot files by
default: one a core up to it."""


def stage_workers(given: int | None) -> int:
    """A bulk load's worker processes: ``given`` (checked against STAGE_WORKERS), else one a
    core, at most STAGE_WORKERS_MAX. Raises ParameterError for a number out of bounds."""
    if given is None:
        # the cores this process may run on (its affinity, which a container's cpuset sets)
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        return min(cores or os.cpu_count() or 1, STAGE_WORKERS_MAX)
    return STAGE_WORKERS.check("stage_workers", given)


@dataclass(frozen=True)
class StreamSettings:
    """How a load reads and batches its files: the options every sink's load shares, as
    ``KnowledgeGraph.load`` and ``bulk_load`` take them (and declare their defaults).

    Raises ParameterError for a batch size under 1 or a negative ``keep_messages``.
    """

    batch_size: int
    strict: bool
    id_scheme: IdScheme
    on_progress: Callable[[int], None] | None
    """Called with each record read."""
    keep_messages: int
    """How many reject messages the summary keeps to show."""
    force: bool
    """Read a file even when its exact content was loaded whole before."""
    on_file: Callable[[Path], None] | None
    """Called as each file starts."""
    since: OlderSnapshot | None = None
    """An older snapshot's records, read by the load (not given to it): those it states as
    they are are not written."""

    def __post_init__(self) -> None:
        COUNT.check("batch_size", self.batch_size)
        COUNT_OR_ZERO.check("keep_messages", self.keep_messages)


def load_files(
    sink: RecordSink,
    inputs: list[InputFile],
    formats: list[tuple[FormatName | None, str | None]],
    summary: LoadSummary,
    rejects: RejectsFile,
    stream: StreamSettings,
) -> None:
    """Feed each input whose format is known to ``sink``, one file after the other.

    The per-file loop of every load, online or bulk: ``formats`` are ``input_format``'s
    answers for ``inputs``. A file that cannot be recognised, or that breaks off mid-way,
    fails on its own (``FileSummary.error``) unless ``stream.strict``; the others load.
    """
    # A batch keeps thousands of records alive; at the default threshold (700 allocations)
    # the cyclic collector scans them over and over, which cost a third of bulk's replay.
    threshold = gc.get_threshold()
    gc.set_threshold(50_000, *threshold[1:])
    try:
        for item, (file_format, error) in zip(inputs, formats, strict=True):
            if stream.on_file is not None:
                stream.on_file(item.path)
            file_summary = FileSummary(
                valid_text(item.shown or str(item.path)),
                file_format or "unknown",
                error=valid_text(error) if error is not None else None,
            )
            summary.files.append(file_summary)
            if file_format is None:
                continue
            try:
                unchanged = stream.since.line_filter() if stream.since is not None else None
                # Taken before the parser hashes the file: a file written to after this
                # point may have given records of two contents under one snapshot key.
                before = _file_state(item.path)
                items: Iterator[ParsedItem | EdgeChunk | StagedBlock]
                if stream.since is None and isinstance(sink, ColumnSink):
                    stage = sink.block_stage(item.path)
                    items = parse_in_columns(item.path, file_format, stream.id_scheme, stage)
                else:
                    items = parse_file(item.path, file_format, stream.id_scheme, unchanged)
                load_stream(
                    sink,
                    items,
                    file_summary,
                    summary,
                    rejects,
                    stream,
                    still_same=functools.partial(_same_state, item.path, before),
                )
            except SourceError as exc:
                # A file that breaks off mid-way (a truncated gzip, an I/O error) keeps what
                # it gave; the others still load.
                if stream.strict:
                    raise
                file_summary.error = valid_text(_reason(item.path, exc))
    finally:
        gc.set_threshold(*threshold)


def load_stream(
    writer: RecordSink,
    items: Iterator[ParsedItem | EdgeChunk | StagedBlock],
    file_summary: FileSummary,
    summary: LoadSummary,
    rejects: RejectsFile,
    stream: StreamSettings,
    still_same: Callable[[], bool] | None = None,
) -> None:
    """Feed one file's records to ``writer`` in batches, counting into the summaries.

    Rejected records go to ``rejects`` (or raise RecordRejected when ``strict``). A file whose
    snapshot (its exact content) this loader version loaded whole before is skipped after
    its first record, unless ``force``: its records are all in the graph already. Once every
    batch of a file without rejected records is written, its snapshot is marked as loaded
    whole, unless ``still_same`` says the file changed since the parser hashed it: then
    SourceError says so, and loading it again loads it whole.
    """
    feed = _Feed(writer, file_summary, summary, rejects, stream)
    try:
        for item in items:
            if isinstance(item, SnapshotRecord):
                if feed.snapshot(item):
                    return
            elif isinstance(item, EdgeChunk):
                feed.edges(item)
            elif isinstance(item, StagedBlock):
                feed.staged(item)
            else:
                feed.record(item)
    except SourceError:
        # The file broke off: what it gave before the break still loads.
        feed.flush()
        raise
    feed.flush()
    if feed.first is not None and file_summary.rejected == 0:
        if still_same is not None and not still_same():
            # Its records are a mix of what it held before and after the change, under the
            # key of the first: marked whole, the same content would be skipped next time
            raise SourceError(
                f"{file_summary.path}: the file changed while it was loaded, so what loaded "
                "may mix its old and new content; it is not recorded as loaded whole",
                "load it again once nothing writes to it",
            )
        # A file with rejected records is not whole in the graph: loading it again reports
        # them again (and loads them, once they are fixed, under a new snapshot key).
        writer.mark_loaded_whole(feed.first.key)


@dataclass
class _Feed:
    """One file's records on their way to ``writer``, in batches (``load_stream``)."""

    writer: RecordSink
    file_summary: FileSummary
    summary: LoadSummary
    rejects: RejectsFile
    stream: StreamSettings
    batch: Batch = dataclasses.field(default_factory=Batch)
    first: SnapshotRecord | None = None
    """The file's first snapshot: the one it is marked loaded whole under."""

    def flush(self) -> None:
        """Write the batch waiting, if any, and start a new one."""
        if len(self.batch):
            self.writer.write_batch(self.batch)
            self.summary.written += len(self.batch)
            self.batch = Batch()

    def edges(self, chunk: EdgeChunk) -> None:
        """Count a chunk of citations as read and write it, after the batch waiting (the
        stage keeps the input's order). Only a ColumnSink is given chunks (``load_files``)."""
        if not isinstance(self.writer, ColumnSink):  # pragma: no cover - a wiring mistake
            raise TypeError(f"{type(self.writer).__name__} takes no EdgeChunk")
        count = len(chunk)
        self.file_summary.read += count
        self.file_summary.citations += count
        self.flush()
        self.writer.write_edges(chunk)
        self.summary.written += count
        if self.stream.on_progress is not None:
            self.stream.on_progress(count)

    def staged(self, block: StagedBlock) -> None:
        """Count a block its sink staged (its records, and its rejects and skips as
        ``record`` does) and write it, after the batch waiting. Only a ColumnSink is given
        blocks (``load_files``). Raises RecordRejected when ``strict``, before the block is
        written."""
        if not isinstance(self.writer, ColumnSink):  # pragma: no cover - a wiring mistake
            raise TypeError(f"{type(self.writer).__name__} takes no StagedBlock")
        self.flush()
        papers = len(block.dates)
        for item in block.items:
            if isinstance(item, Rejected | Skipped):
                self.record(item)
        self.file_summary.read += papers
        self.file_summary.papers += papers
        self.writer.write_staged(block)
        self.summary.written += papers
        if self.stream.on_progress is not None:
            self.stream.on_progress(papers)

    def snapshot(self, item: SnapshotRecord) -> bool:
        """Write a snapshot of the file; return True when it is the first and this loader
        version loaded it whole before (and not ``force``): the rest of the file is in."""
        if self.first is None:
            self.first = item
            self.file_summary.snapshot = item.key
            if not self.stream.force and self.writer.loaded_whole(item.key):
                # Its records are in; the snapshot row still goes, so that which file
                # name it keeps (the smallest) does not depend on the order.
                self.writer.write_snapshot(item)
                self.file_summary.unchanged = True
                return True
        self.writer.write_snapshot(item)
        return False

    def record(self, item: ParsedItem) -> None:
        """Count one item the parser read, and add a record to the batch (writing the batch
        when full) or a rejected one to the rejects. Raises RecordRejected when ``strict``."""
        file_summary, stream = self.file_summary, self.stream
        file_summary.read += 1
        if isinstance(item, Skipped):
            file_summary.skipped[item.kind] = file_summary.skipped.get(item.kind, 0) + 1
        if isinstance(item, Rejected):
            file_summary.rejected += 1
            if stream.strict:
                raise RecordRejected(item.origin.path, item.origin.line, item.reason)
            self.rejects.add(item)
            if len(self.summary.reject_messages) < stream.keep_messages:
                self.summary.reject_messages.append(item.message())
        elif (
            stream.since is not None
            and isinstance(item, PaperRecord | CitationRecord)
            and stream.since.holds(item)
        ):
            pass  # the older snapshot states it as it is (counted there)
        elif isinstance(item, PaperRecord):
            file_summary.papers += 1
            self.batch.papers.append(item)
        elif isinstance(item, CitationRecord):
            file_summary.citations += 1
            self.batch.citations.append(item)
        if len(self.batch) >= stream.batch_size:
            self.flush()
        if stream.on_progress is not None:
            stream.on_progress(1)


_FileState = tuple[tuple[str, int, int, int, int, int], ...]


def _same_state(path: Path, state: _FileState) -> bool:
    """True when ``path`` is as ``_file_state`` found it."""
    return _file_state(path) == state


def _file_state(path: Path) -> _FileState:
    """What changes when a file (or any .abs file of a folder input) is written to, replaced
    or removed: device, inode, size and modification and change times, per file."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    states = []
    for file in files:
        try:
            found = file.stat()
        except OSError:
            states.append((str(file), 0, 0, -1, 0, 0))
            continue
        states.append(
            (
                str(file),
                found.st_dev,
                found.st_ino,
                found.st_size,
                found.st_mtime_ns,
                found.st_ctime_ns,
            )
        )
    return tuple(states)
