"""Where the tests find their data.

Everything the suite checks by default comes from files the project writes itself:
``tests/fixtures/``, the example map in ``examples/`` and the made-up sets of
``tests/hepth_like.py``. Real outside data (the seed pages, cit-HepTh's edges and abstracts,
the OpenAlex, Semantic Scholar and Crossref records) is found through one variable,
``KG_DATA_DIR``: the folder holding ``seeds/`` and ``data/``, by default ``../shared`` beside
the checkout when it exists. The project ships none of it.
A test that needs it carries ``@pytest.mark.needs_data(path, ...)``: when a path is missing
it is skipped with a reason naming the variable, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
EXAMPLES = REPO / "examples"

# Facts-only copies of the seed page and record: the abstract text is replaced by a stand-in.
SEED_PAGE = FIXTURES / "seeds" / "m6_10t_page.txt"
SEED_RECORD = FIXTURES / "seeds" / "m6_10t_record.json"
SEED_ID = "2110.03888"

# A title hostile to every output: XML and HTML markup, an ampersand, rich markup, an
# unbalanced brace and a control character.
HOSTILE_TITLE = "Less <than> & \"quoted\" <script>alert('x')</script> [bold] {unbalanced \x07 bell"


def in_ci() -> bool:
    """Return True under CI=true, where a test never skips for missing data."""
    return os.environ.get("CI", "").lower() == "true"


def data_dir() -> Path:
    """Return the folder of real outside data: $KG_DATA_DIR, else ../shared beside the repo."""
    configured = os.environ.get("KG_DATA_DIR")
    return Path(configured).expanduser() if configured else REPO.parent / "shared"


DATA_DIR = data_dir()
REAL_SEED_PAGE = DATA_DIR / "seeds" / "000_b00b263e15383f71.txt"
REAL_SEED_RECORD = DATA_DIR / "seeds" / "002_6f18944a66989321.txt"
REAL_HEPTH_ABSTRACTS = DATA_DIR / "data" / "cit-hepth" / "cit-HepTh-abstracts.tar.gz"
REAL_HEPTH_EDGES = DATA_DIR / "data" / "cit-hepth" / "cit-HepTh.txt.gz"
REAL_SOURCES = DATA_DIR / "data" / "sources"


def missing_reason(paths: tuple[Path, ...]) -> str | None:
    """Return why a test needing ``paths`` cannot run, or None when every one exists."""
    missing = [path for path in paths if not path.exists()]
    if not missing:
        return None
    return (
        f"real data not found: {missing[0]} (KG_DATA_DIR={DATA_DIR}; set KG_DATA_DIR to the "
        "folder holding seeds/ and data/)"
    )
