"""arXiv metadata records (the JSON lines of Kaggle's arXiv Dataset) written by the tests."""

from __future__ import annotations

import json


def arxiv_line(
    arxiv_id: str,
    title: str,
    created: str,
    update: str,
    *,
    authors: str = "A. Author",
    abstract: str = "A record for the test.",
    **extra: object,
) -> str:
    """Return one arXiv record as a JSON line: the paper ``arxiv_id`` with one version
    ``created`` on that date, last updated on ``update``, and any ``extra`` fields after."""
    record = {
        "id": arxiv_id,
        "title": title,
        "authors": authors,
        "categories": "cs.CL cs.LG",
        "abstract": abstract,
        "versions": [{"version": "v1", "created": created}],
        "update_date": update,
        **extra,
    }
    return json.dumps(record) + "\n"
