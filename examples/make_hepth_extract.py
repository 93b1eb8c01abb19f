"""Write the facts-only metadata extract of cit-HepTh that `make run` loads.

The SNAP cit-HepTh abstracts tarball (KDD Cup 2003) holds one ``.abs`` file per paper with
its abstract. The map that ships with the project keeps only the facts: arXiv id, title,
authors, categories, first-posted date, version count and journal reference. They are
written as arXiv metadata snapshot JSON lines (the Kaggle/OAI format), which ``kg load``
reads like any other snapshot.

    python examples/make_hepth_extract.py $KG_DATA_DIR/data/cit-hepth/cit-HepTh-abstracts.tar.gz

writes ``examples/hepth/hepth-metadata.jsonl.gz``. The gzip header carries no time stamp, so
the same tarball always gives the same bytes.
"""

from __future__ import annotations

import gzip
import json
import sys
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

from kg.loaders import hepth_abs
from kg.loaders.records import PaperRecord

OUT = Path(__file__).resolve().parent / "hepth" / "hepth-metadata.jsonl.gz"


def _authors_parsed(name: str) -> list[str]:
    """Return ``[last, first, suffix]`` the way the arXiv snapshot spells a name."""
    first, _, last = name.rpartition(" ")
    return [last, first, ""]


def _line(record: PaperRecord) -> dict[str, object]:
    versions: list[dict[str, str]] = [
        {"version": f"v{n}"} for n in range(1, (record.version or 1) + 1)
    ]
    if record.published is not None:
        noon = datetime(*record.published.timetuple()[:3], 12, tzinfo=UTC)
        versions[0]["created"] = format_datetime(noon, usegmt=True)
    categories = " ".join([c for c in (record.primary_category, *record.cross_categories) if c])
    return {
        "id": record.arxiv_id,
        "title": record.title,
        "authors": ", ".join(record.authors),
        "authors_parsed": [_authors_parsed(name) for name in record.authors],
        "categories": categories or None,
        "journal-ref": record.journal_ref,
        "versions": versions,
        "update_date": record.published.isoformat() if record.published else None,
    }


def main(tarball: Path) -> int:
    """Write the extract; return the number of papers written."""
    records = [item for item in hepth_abs.parse(tarball) if isinstance(item, PaperRecord)]
    records.sort(key=lambda record: record.arxiv_id or "")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        for record in records:
            handle.write(json.dumps(_line(record), ensure_ascii=False).encode() + b"\n")
    return len(records)


if __name__ == "__main__":
    count = main(Path(sys.argv[1]))
    print(f"wrote {count:,} papers to {OUT}")
