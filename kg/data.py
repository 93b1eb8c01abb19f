"""The public data sets: where they live, their checksums, and ``kg data get``.

The project ships no public data. A data set is named here with its home page, its terms as
that page states them, and each file's address, size and sha256. :func:`get` returns the
files on this machine:

1. from ``KG_DATA_DIR`` when they are there (``$KG_DATA_DIR/data/<set>/<file>``,
   ``$KG_DATA_DIR/<set>/<file>`` or ``$KG_DATA_DIR/<file>``), read in place;
2. else from the cache (``--to DIR``, or ``$KG_HOME/data/<set>/``);
3. else downloaded from the data set's home into the cache.

Every file is checked against its size and sha256 before it is returned. A download goes to
``<file>.part`` beside its final name, resumes from there with an HTTP range request after an
interruption (or starts again when the server ignores the range), and is renamed to its final
name only once it checks out, so no half-written file ever stands under the final name.

    from kg import data
    edges, abstracts = data.get("cit-hepth")
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.client import HTTPResponse
from pathlib import Path
from typing import BinaryIO

from kg.errors import DataUnavailable, ParameterError
from kg.server.config import kg_home
from loaders.errors import printable

__all__ = [
    "DATA_SETS",
    "DataSet",
    "DataUnavailable",
    "Progress",
    "RemoteFile",
    "cache_dir",
    "data_dir",
    "find",
    "get",
    "lookup",
]

CHUNK = 1 << 16
CONNECT_TIMEOUT = 20.0
"""Seconds to wait for a server to answer (and between two reads of a download)."""

Progress = Callable[[str, int, int | None], None]
"""Called as bytes arrive: the file's name, the bytes it has so far, and its full size."""


@dataclass(frozen=True)
class RemoteFile:
    """One file of a data set: its name, where it is published, and what it must be."""

    name: str
    url: str
    size: int | None
    """Bytes, or None where the project has not pinned the file (see ``sha256``)."""
    sha256: str | None
    """The file's sha256 as the project measured it, or None where no copy could be measured;
    such a file is checked for a complete gzip stream instead, and its digest is reported."""

    @property
    def pinned(self) -> bool:
        """True when the file's size and sha256 are written in the project."""
        return self.size is not None and self.sha256 is not None


@dataclass(frozen=True)
class DataSet:
    """A public data set: its files, where it comes from, and how ``kg load`` reads it."""

    name: str
    title: str
    home: str
    terms: str
    """The terms of use as the home page states them."""
    files: tuple[RemoteFile, ...]
    id_scheme: str = "arxiv"
    """The ``--id-scheme`` its edge list needs."""
    papers: str = ""
    """What it holds, in a few words."""


_SNAP = "https://snap.stanford.edu/data/"
_SNAP_TERMS = (
    "SNAP's page states no licence; it asks users to cite J. Leskovec, J. Kleinberg and "
    "C. Faloutsos, 'Graphs over Time', KDD 2005, and J. Gehrke, P. Ginsparg and J. Kleinberg, "
    "'Overview of the 2003 KDD Cup', SIGKDD Explorations 5(2), 2003"
)

DATA_SETS: dict[str, DataSet] = {
    item.name: item
    for item in (
        DataSet(
            "cit-hepth",
            "SNAP cit-HepTh: the arXiv hep-th citation network with its abstracts (KDD Cup 2003)",
            _SNAP + "cit-HepTh.html",
            _SNAP_TERMS,
            (
                RemoteFile(
                    "cit-HepTh.txt.gz",
                    _SNAP + "cit-HepTh.txt.gz",
                    1_317_497,
                    "7df944b502bd7b687b0e7e94ba9b0a87f202693254558ae5f8ea45657697eb32",
                ),
                RemoteFile(
                    "cit-HepTh-abstracts.tar.gz",
                    _SNAP + "cit-HepTh-abstracts.tar.gz",
                    12_243_284,
                    "411570ea6ebc1289b8a5549769e1f1b5f88a50576197adba178e1ef17df1667a",
                ),
            ),
            id_scheme="snap-hepth",
            papers="27,770 papers and 352,807 citations, 1992-2003; 29,555 abstracts",
        ),
        DataSet(
            "cit-hepph",
            "SNAP cit-HepPh: the arXiv hep-ph citation network (KDD Cup 2003)",
            _SNAP + "cit-HepPh.html",
            _SNAP_TERMS,
            (RemoteFile("cit-HepPh.txt.gz", _SNAP + "cit-HepPh.txt.gz", None, None),),
            id_scheme="snap-hepph",
            papers="34,546 papers and 421,578 citations, 1992-2003",
        ),
    )
}


def lookup(name: str) -> DataSet:
    """Return the data set called ``name``; raise ParameterError naming the known ones."""
    try:
        return DATA_SETS[name.lower()]
    except KeyError:
        raise ParameterError(
            f"no public data set is called '{printable(name)}'",
            f"name one of {', '.join(DATA_SETS)} (kg data list)",
        ) from None


def data_dir() -> Path | None:
    """Return ``$KG_DATA_DIR``, or None when it is unset or empty."""
    configured = os.environ.get("KG_DATA_DIR", "").strip()
    return Path(configured).expanduser() if configured else None


def cache_dir(data_set: DataSet, to: Path | None = None) -> Path:
    """Return where downloads of ``data_set`` go: ``to``, else ``$KG_HOME/data/<set>``."""
    if to is not None:
        return to
    return kg_home() / "data" / data_set.name


def _candidates(data_set: DataSet, remote: RemoteFile, to: Path | None) -> Iterator[Path]:
    outside = data_dir()
    if outside is not None:
        yield outside / "data" / data_set.name / remote.name
        yield outside / data_set.name / remote.name
        yield outside / remote.name
    yield cache_dir(data_set, to) / remote.name


def find(data_set: DataSet | str, to: Path | None = None) -> list[Path] | None:
    """Return the data set's files where they already are on this machine, checked, or None
    when any is missing; raise DataUnavailable when one is there but is not the file."""
    chosen = lookup(data_set) if isinstance(data_set, str) else data_set
    found: list[Path] = []
    for remote in chosen.files:
        path = _on_machine(chosen, remote, to)
        if path is None:
            return None
        found.append(path)
    return found


def get(
    data_set: DataSet | str,
    to: Path | None = None,
    *,
    progress: Progress | None = None,
    base_url: str | None = None,
) -> list[Path]:
    """Return the paths of the data set's files on this machine, downloading the missing ones.

    ``base_url`` (or ``$KG_DATA_URL``) names a mirror holding the files under their names.
    Raises DataUnavailable when a file can be neither found nor fetched, or does not match
    its checksum (a download that does not is removed), and ParameterError for an unknown
    name.
    """
    chosen = lookup(data_set) if isinstance(data_set, str) else data_set
    mirror = base_url or os.environ.get("KG_DATA_URL", "").strip() or None
    paths: list[Path] = []
    for remote in chosen.files:
        here = _on_machine(chosen, remote, to)
        if here is None:
            url = mirror.rstrip("/") + "/" + remote.name if mirror else remote.url
            here = _download(chosen, remote, url, cache_dir(chosen, to), progress)
        paths.append(here)
    return paths


def _on_machine(data_set: DataSet, remote: RemoteFile, to: Path | None) -> Path | None:
    """Return the first of ``remote``'s places on this machine that holds a file, checked
    (DataUnavailable when it is not the file), or None when none does."""
    path = next((p for p in _candidates(data_set, remote, to) if p.is_file()), None)
    if path is not None:
        _check(path, remote, _digest(path))
    return path


def _where_to_put(data_set: DataSet) -> str:
    names = " and ".join(remote.name for remote in data_set.files)
    return (
        f"put {names} in $KG_DATA_DIR/data/{data_set.name}/ (set KG_DATA_DIR to the folder "
        f"holding data/), or fetch {data_set.name} where {data_set.home} can be reached"
    )


def _download(
    data_set: DataSet, remote: RemoteFile, url: str, folder: Path, progress: Progress | None
) -> Path:
    final = folder / remote.name
    part = folder / (remote.name + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataUnavailable(
            f"cannot create {printable(str(folder))} for {remote.name}: {exc.strerror}",
            "name a writable folder with --to DIR, or set KG_HOME",
        ) from None
    digest = hashlib.sha256()
    have = part.stat().st_size if part.is_file() else 0
    if remote.size is not None and have >= remote.size:
        # Whole already (the last run stopped before the rename), or longer than the file.
        if have == remote.size and _matches(part, remote):
            os.replace(part, final)
            return final
        part.unlink()
        have = 0
    with contextlib.ExitStack() as stack:
        response = stack.enter_context(_open(data_set, remote, url, have))
        if have and response.status == 200:
            have = 0  # the server ignored the range: start again
        mode = "ab" if have else "wb"
        if have:
            with part.open("rb") as done:
                for block in iter(lambda: done.read(CHUNK), b""):
                    digest.update(block)
        total = _total(response, have, remote)
        out = stack.enter_context(_writable(part, mode))
        have = _copy(response, out, digest.update, have, total, remote, url, progress)
        out.flush()
        os.fsync(out.fileno())
    try:
        _check(part, remote, digest.hexdigest())
    except DataUnavailable:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, final)
    return final


def _open(data_set: DataSet, remote: RemoteFile, url: str, have: int) -> HTTPResponse:
    request = urllib.request.Request(url, headers={"User-Agent": "kg-map (kg data get)"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response: HTTPResponse = urllib.request.urlopen(request, timeout=CONNECT_TIMEOUT)
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 416 and have:
            # The range starts at or past the end: what is there is either whole or wrong.
            raise DataUnavailable(
                f"{url} has no bytes past the {have:,} already in {remote.name}.part",
                f"remove {remote.name}.part and run kg data get {data_set.name} again",
            ) from None
        raise DataUnavailable(
            f"{url} answered {exc.code} {printable(str(exc.reason))} for {remote.name}",
            _where_to_put(data_set),
        ) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise DataUnavailable(
            f"cannot reach {url} ({printable(str(reason))})", _where_to_put(data_set)
        ) from None
    return response


def _total(response: HTTPResponse, have: int, remote: RemoteFile) -> int | None:
    length = response.headers.get("Content-Length")
    if length is not None and length.isdigit():
        return have + int(length)
    return remote.size


@contextlib.contextmanager
def _writable(part: Path, mode: str) -> Iterator[BinaryIO]:
    try:
        handle: BinaryIO = part.open("ab" if mode == "ab" else "wb")
    except OSError as exc:
        raise DataUnavailable(
            f"cannot write {printable(str(part))}: {exc.strerror}",
            "name a writable folder with --to DIR, or set KG_HOME",
        ) from None
    with handle:
        yield handle


def _copy(
    response: HTTPResponse,
    out: BinaryIO,
    update: Callable[[bytes], None],
    have: int,
    total: int | None,
    remote: RemoteFile,
    url: str,
    progress: Progress | None,
) -> int:
    try:
        while block := response.read(CHUNK):
            out.write(block)
            update(block)
            have += len(block)
            if progress is not None:
                progress(remote.name, have, total)
    except (TimeoutError, OSError, urllib.error.URLError, ValueError) as exc:
        kept = f"{have:,} bytes are kept in {remote.name}.part"
        raise DataUnavailable(
            f"the download of {url} was cut ({printable(str(exc)) or type(exc).__name__}); {kept}",
            "run the same command again to resume",
        ) from None
    if total is not None and have < total:
        raise DataUnavailable(
            f"the download of {url} ended after {have:,} of {total:,} bytes; "
            f"they are kept in {remote.name}.part",
            "run the same command again to resume",
        )
    return have


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _matches(path: Path, remote: RemoteFile) -> bool:
    try:
        _check(path, remote, _digest(path))
    except DataUnavailable:
        return False
    return True


def _check(path: Path, remote: RemoteFile, sha256: str) -> None:
    """Raise DataUnavailable unless ``path`` is ``remote`` (or, unpinned, a whole gzip)."""
    shown = printable(str(path))
    size = path.stat().st_size
    if remote.size is not None and size != remote.size:
        raise DataUnavailable(
            f"{shown} has {size:,} bytes where {remote.name} has {remote.size:,}",
            "remove it and run kg data get again, or put the published file there",
        )
    if remote.sha256 is not None and sha256 != remote.sha256:
        raise DataUnavailable(
            f"{shown} does not match {remote.name}: its sha256 is {sha256}, the published "
            f"file's is {remote.sha256}",
            "remove it and run kg data get again, or put the published file there",
        )
    if remote.sha256 is None:
        _check_gzip(path, shown)


def _check_gzip(path: Path, shown: str) -> None:
    import gzip
    import zlib

    try:
        with gzip.open(path, "rb") as stream:
            while stream.read(CHUNK * 16):
                pass
    except (OSError, EOFError, zlib.error) as exc:
        raise DataUnavailable(
            f"{shown} is not a whole gzip file ({printable(str(exc))})",
            "remove it and run kg data get again",
        ) from None
