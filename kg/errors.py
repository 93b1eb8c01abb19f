"""The one exception hierarchy of the project: everything we raise on purpose is a KGError."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from loaders.errors import KGError, SourceError, printable

if TYPE_CHECKING:
    from kg.answers import PaperSummary

__all__ = [
    "AmbiguousAuthor",
    "AmbiguousPaper",
    "AmbiguousReference",
    "AnalyticsError",
    "AuthorNotFound",
    "CategoryNotFound",
    "ConfigError",
    "ConnectionFailed",
    "DataUnavailable",
    "EmbeddingUnavailable",
    "GraphBusy",
    "IdentityUnsettled",
    "InstallError",
    "KGError",
    "LoadInterrupted",
    "NotEmptyError",
    "OlderGraph",
    "PaperNotFound",
    "ParameterError",
    "PlotError",
    "PortInUseError",
    "QueryFailed",
    "QueryFileError",
    "QueryNotFound",
    "RecordRejected",
    "ServerError",
    "SimilarityError",
    "SourceError",
    "StageWorkerFailed",
    "ToolMissingError",
    "UnknownReference",
]


class ConfigError(KGError):
    """The environment or KG_HOME holds settings that cannot work."""


class ToolMissingError(KGError):
    """A program the local server needs (java, mvn) is missing or the wrong version."""


class IdentityUnsettled(KGError):
    """The identity reconcile of some titles did not settle within its cap on rounds."""

    def __init__(self, norm_titles: Sequence[str], rounds: int, what: str = "titles") -> None:
        shown = ", ".join(repr(title) for title in norm_titles[:5])
        more = f" and {len(norm_titles) - 5:,} more" if len(norm_titles) > 5 else ""
        super().__init__(
            f"the identity rule did not settle in {rounds:,} reconcile rounds for the "
            f"{what} {shown}{more}",
            f"each round committed, so the graph is consistent but these {what} may hold "
            f"duplicates: report the {what} as a bug, and see them with kg merges",
        )
        self.norm_titles = list(norm_titles)
        self.rounds = rounds


class OlderGraph(KGError):
    """The graph holds what an older kg wrote, which this one cannot change as its rules say."""

    def __init__(self, paper: str, keys: Sequence[str]) -> None:
        super().__init__(
            f"the paper {printable(paper)} holds title keys with records of their own merged "
            "by a kg older than 0.8.0, which kept no copy of "
            f"{', '.join(printable(k) for k in keys)} to take the paper apart",
            "load the graph's sources into an emptied database (kg db reset, then kg load)",
        )
        self.paper = paper
        self.keys = list(keys)


class DataUnavailable(KGError):
    """A public data set's file is not on this machine, cannot be fetched, or fails its check."""


class GraphBusy(KGError):
    """A load or an unmerge waited for the other to end, and it did not in time."""

    def __init__(self, kind: str, holders: Sequence[str], waited: float) -> None:
        shown = "; ".join(printable(h) for h in list(holders)[:3])
        more = f" and {len(holders) - 3:,} more" if len(holders) > 3 else ""
        if kind == "unmerge":
            what = "an unmerge runs alone, and other work on the graph is running"
            hint = (
                "run kg unmerge again once it ends (a load killed before it ended keeps it "
                "from running for up to 10 minutes)"
            )
        else:
            what = "a load waits for an unmerge to end, and one is running"
            hint = "run the load again once it ends"
        super().__init__(f"{what} after waiting {waited:,.0f}s ({shown}{more})", hint)
        self.kind = kind
        self.holders = list(holders)


class InstallError(KGError):
    """Installing the local Neo4j from Maven Central failed."""


class ServerError(KGError):
    """The local Neo4j could not be started, stopped or reached."""


class PortInUseError(ServerError):
    """A port the local Neo4j wants is already taken by another process."""


class ConnectionFailed(KGError):
    """The driver could not reach the configured Neo4j or was refused its credentials."""


class QueryFileError(KGError):
    """A .cypher file is malformed: bad header, or declared and used parameters differ."""


class QueryNotFound(KGError):
    """No .cypher file has the requested query name."""


class ParameterError(KGError):
    """A query was called with missing, unknown or badly typed parameters."""


class PlotError(KGError):
    """matplotlib could not draw a picture of the map."""


class RecordRejected(KGError):
    """One input record is invalid; it names the file, the line and the reason."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class PaperNotFound(KGError):
    """A paper reference matched no paper in the graph."""


class AmbiguousPaper(KGError):
    """A paper reference matched more than one paper."""


class NotEmptyError(KGError):
    """An operation that needs an empty database found data in it."""


class AuthorNotFound(KGError):
    """An author name matched no author in the graph."""


class AmbiguousAuthor(KGError):
    """An author name matched several authors and none exactly, or several people its
    sources know by strong ids (ORCIDs); ``candidates`` lists them."""

    def __init__(self, name: str, candidates: list[dict[str, object]]) -> None:
        lines = "\n".join(
            f"  {printable(c['name'])}  ({c['papers']} papers)"
            + (f"  {printable(c['key'])}" if ":" in str(c["key"]) else "")
            for c in candidates
        )
        super().__init__(
            f"{name!r} matches {len(candidates)} authors",
            f"Pass the full name, or the id, of the one you mean:\n{lines}",
        )
        self.candidates = [str(c["key"]) for c in candidates]


class CategoryNotFound(KGError):
    """A category code matched no category in the graph."""


class AnalyticsError(KGError):
    """An analysis cannot run as asked: a bad option, or an engine that is not there."""


class SimilarityError(KGError):
    """A similarity, connector or recommendation question cannot run as asked."""


class EmbeddingUnavailable(KGError):
    """The text embedding model, or the vectors a search by meaning needs, are not there."""


class AmbiguousReference(AmbiguousPaper):
    """A paper reference matched several papers; ``candidates`` lists them."""

    def __init__(self, ref: str, candidates: Sequence[PaperSummary]) -> None:
        lines = "\n".join(f"  {_describe(c)}" for c in candidates)
        super().__init__(
            f"{ref!r} matches {len(candidates)} papers",
            f"Pass the key of the one you mean (kg paper KEY):\n{lines}",
        )
        self.ref = ref
        self.candidates = list(candidates)


class UnknownReference(PaperNotFound):
    """A paper reference matched no paper; ``suggestions`` lists near titles."""

    def __init__(self, ref: str, suggestions: Sequence[PaperSummary]) -> None:
        if suggestions:
            lines = "\n".join(f"  {_describe(s)}" for s in suggestions)
            hint = f"Did you mean one of these? Pass its key:\n{lines}"
        else:
            hint = (
                "Check the arXiv id or title, look with `kg search WORDS`, "
                "or load the paper's page with `kg load FILE`"
            )
        super().__init__(f"no paper matches {ref!r}", hint)
        self.ref = ref
        self.suggestions = list(suggestions)


class StageWorkerFailed(KGError):
    """A worker process of bulk mode's stage stopped without its answer."""


class LoadInterrupted(KGError):
    """Neo4j went away mid-load; the message says how much was written, the hint how to finish."""

    def __init__(self, cause: KGError, written: int, read: int) -> None:
        super().__init__(
            f"{cause.message}: loaded {written:,} of {read:,} records",
            "rerun the same command to finish (loads are idempotent)",
        )
        self.cause = cause
        self.written = written
        self.read = read

    def __str__(self) -> str:
        return f"{self.message}; {self.hint}"


def _describe(paper: PaperSummary) -> str:
    year = paper.year if paper.year is not None else "----"
    return printable(f"{paper.key}  ({year})  {paper.title or ''}".rstrip())


class QueryFailed(KGError):
    """Neo4j rejected a query; the message carries the server's own words."""
