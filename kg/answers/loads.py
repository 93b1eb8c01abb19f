"""The reports of loads: what a load, a bulk load and the schema did, and the merge records
and splits of the identity rule (``kg.load``'s answers, as ``kg.answers.runs`` holds the
analytics' and exports')."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Final

from pydantic import Field, computed_field

from kg.answers.questions import Date, Model, PaperSummary

__all__ = [
    "BulkSummary",
    "FileSummary",
    "KeptApart",
    "ListedApart",
    "LoadSummary",
    "MergeRecord",
    "MergedKey",
    "SchemaReport",
    "SourceSnapshot",
    "UnmergeResult",
    "WriteCounts",
]


GRAPH_COUNTERS: Final = (
    "nodes_created",
    "nodes_deleted",
    "relationships_created",
    "relationships_deleted",
    "properties_set",
)
"""The update counters of changes to the graph itself, which loads sum."""


@dataclass
class WriteCounts:
    """What the writes did, summed over batches, from the server's own counters."""

    nodes_created: int = 0
    nodes_deleted: int = 0
    relationships_created: int = 0
    relationships_deleted: int = 0
    properties_set: int = 0
    merged: int = 0
    moved: int = 0
    """Title keys taken out of the paper holding them because the identity rule now gives
    them another (a nearer arXiv paper of the same title that came later), or none (a page
    that came later lists them apart from that paper's keys)."""

    def add(self, counters: dict[str, int]) -> None:
        """Add one statement's counters."""
        for name in GRAPH_COUNTERS:
            setattr(self, name, getattr(self, name) + counters.get(name, 0))


@dataclass
class FileSummary:
    """What one input file gave."""

    path: str
    format: str
    read: int = 0
    papers: int = 0
    citations: int = 0
    rejected: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    """Why the file failed (it could not be read or recognised), or None."""
    unchanged: bool = False
    """True when the file was skipped: this exact content was loaded whole before."""
    snapshot: str | None = None
    """The key of the file's Snapshot (the SHA-256 of its content), once read."""
    carried: int = 0
    """Records an incremental load (``since``) did not write: the older snapshot states
    them as they are."""


@dataclass
class LoadSummary:
    """What a load did: per file, in total, and the server's write counters."""

    files: list[FileSummary] = field(default_factory=list)
    counts: WriteCounts = field(default_factory=WriteCounts)
    rejects_file: str | None = None
    rejects_error: str | None = None
    """Why the rejects file could not take every reject (a full disk), with what to do; the
    valid records loaded all the same."""
    seconds: float = 0.0
    reject_messages: list[str] = field(default_factory=list)
    written: int = 0
    """Records in batches the graph has taken (committed)."""
    built_by: list[str] = field(default_factory=list)
    """Other kg versions that loaded snapshots of this graph whole before this load began
    (``older_loaders``) whose identity rules differ from this version's, so such a graph is
    rebuilt (``kg db reset``, then the files loaded again) for the rules to hold."""

    @property
    def failed(self) -> list[FileSummary]:
        """The files that could not be read or recognised."""
        return [f for f in self.files if f.error is not None]

    def failed_messages(self) -> list[str]:
        """Return one ``file: reason`` line per failed file."""
        return [f"{f.path}: {f.error}" for f in self.failed]

    @property
    def read(self) -> int:
        """Records read, rejected ones included."""
        return sum(f.read for f in self.files)

    @property
    def unchanged(self) -> list[str]:
        """The files skipped because this exact content was loaded whole before."""
        return [f.path for f in self.files if f.unchanged]

    @property
    def rejected(self) -> int:
        """Records rejected."""
        return sum(f.rejected for f in self.files)

    @property
    def skipped(self) -> dict[str, int]:
        """Records skipped as facts of the data the graph does not keep, by kind."""
        totals: dict[str, int] = {}
        for f in self.files:
            for kind, count in f.skipped.items():
                totals[kind] = totals.get(kind, 0) + count
        return totals

    def skipped_sentence(self) -> str | None:
        """Return e.g. '39 self-citations skipped', or None when nothing was skipped."""
        parts = [
            f"{count:,} {kind}{'' if count == 1 else 's'} skipped"
            for kind, count in sorted(self.skipped.items())
        ]
        return "; ".join(parts) or None

    def as_dict(self) -> dict[str, object]:
        """Return the summary as a JSON-ready dict."""
        return {
            "read": self.read,
            "papers": sum(f.papers for f in self.files),
            "citations": sum(f.citations for f in self.files),
            "rejected": self.rejected,
            "carried": sum(f.carried for f in self.files),
            "skipped": self.skipped,
            "created": {
                "nodes": self.counts.nodes_created,
                "relationships": self.counts.relationships_created,
            },
            "updated": {"properties_set": self.counts.properties_set},
            "merged": self.counts.merged,
            "moved": self.counts.moved,
            "built_by": self.built_by,
            "deleted": {
                "nodes": self.counts.nodes_deleted,
                "relationships": self.counts.relationships_deleted,
            },
            "files": [asdict(f) for f in self.files],
            "failed": [{"file": f.path, "reason": f.error} for f in self.failed],
            "unchanged": self.unchanged,
            "rejects_file": self.rejects_file,
            "rejects_error": self.rejects_error,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class BulkSummary:
    """What a bulk load did: the load summary, node and relationship counts, stage times."""

    load: LoadSummary
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    stages: dict[str, float] = field(default_factory=dict)
    csv_dir: str | None = None
    import_arguments: list[str] = field(default_factory=list)
    online_papers: int = 0
    """Papers the online writer wrote after the import (a rule could touch them)."""
    online_citations: int = 0
    """Citations the online writer wrote after the import."""

    def as_dict(self) -> dict[str, object]:
        """Return the summary as a JSON-ready dict."""
        summary = self.load.as_dict()
        summary["bulk"] = {
            "nodes": self.nodes,
            "relationships": self.relationships,
            "stages": {name: round(seconds, 3) for name, seconds in self.stages.items()},
            "csv_dir": self.csv_dir,
            "import_arguments": self.import_arguments,
            "online_papers": self.online_papers,
            "online_citations": self.online_citations,
        }
        return summary


@dataclass(frozen=True)
class SchemaReport:
    """What applying the schema did: the names it created and those already there."""

    created: tuple[str, ...]
    existing: tuple[str, ...]


class MergedKey(Model):
    """One key that became part of a paper, the rule that joined it, the citations that
    named it and how its best reference spelled it."""

    key: str
    rule: str
    citations: int = Field(
        0, description="citations of or by the paper whose source named it by this key"
    )
    named_in: list[str] = Field(
        default_factory=list, description="snapshot keys whose citations named this key"
    )
    cited_as: str | None = Field(
        None, description="the title as the best reference to this key spelled it"
    )
    cited_as_in: str | None = Field(
        None, description="the snapshot key of that reference (newest data date, then key)"
    )


class ListedApart(Model):
    """Keys of a merged paper that one snapshot (a map page) lists as separate papers."""

    keys: list[str]
    snapshot: str
    source: str | None = None


class MergeRecord(PaperSummary):
    """A paper that absorbed other keys: which keys, by which rule, named in which snapshots."""

    merged: list[MergedKey]
    snapshots: list[str] = Field(description="snapshot keys that describe or cite the paper")
    contested_by: list[str] = Field(
        default_factory=list,
        description="other arXiv papers in its group under a title it absorbed keys under "
        "(one normalised title, years chained at most 1 apart): the rule gave each title key "
        "to the one whose years are nearest, so the merge is worth a look",
    )
    listed_apart: list[ListedApart] = Field(
        default_factory=list,
        description="keys of it that one page lists as separate papers, which the rule keeps "
        "apart (a paper a load has reconciled since the page was loaded holds none)",
    )

    shared_ids: list[str] = Field(
        default_factory=list,
        description="its strong ids that name another paper too, which the rule keeps apart "
        "(two arXiv papers never merge): a source mixed them up, or they are one paper",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def contested(self) -> bool:
        """True when another arXiv paper, a page or a shared strong id speaks against the
        merge (or against keeping the paper apart): check it."""
        return bool(self.contested_by or self.listed_apart or self.shared_ids)


class SourceSnapshot(Model):
    """A snapshot that states something about a paper: its key, kind, file name and date."""

    key: str
    kind: str | None = None
    source: str | None = None
    data_date: Date | None = None


class UnmergeResult(Model):
    """What ``unmerge`` did: the keys kept apart, and the sources to reload."""

    paper: PaperSummary
    kept_apart: list[str]
    removed: bool
    sources: list[SourceSnapshot]

    def reload_hint(self) -> str:
        """Return the sentence that says how to rebuild the split papers."""
        names = sorted({s.source for s in self.sources if s.source})
        if not names:
            return "no loaded source names this paper; nothing to reload"
        return "reload these sources to write each key as its own paper: " + ", ".join(names)


class KeptApart(Model):
    """A split a user made: the keys kept apart, the paper they were split from and the
    normalised titles whose reconcile reads it. A list of these, as JSON, is the file
    ``kg load --keep-apart`` reads."""

    split_from: str | None = None
    keys: list[str] = Field(min_length=1)
    norm_titles: list[str] = Field(default_factory=list)
    recorded_at: str | None = None
