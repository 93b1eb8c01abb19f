"""No run of six or more lines stands in two places of cypher/ unless docs/ARCHITECTURE.md
names the pair with its reason.

The scan for duplicated code reads no ``.cypher`` file, and a Cypher file cannot include
another (each runs alone in Neo4j Browser), so a rule written twice there would drift
unseen. The allow-list is read from the doc's table, so the doc and this test cannot differ.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "ARCHITECTURE.md"
MIN_LINES = 6
"""How many shared lines make a run: the same as the scan for duplicated code."""

_SECTION = "## What looks alike and stays"
_CYPHER_FILE = re.compile(r"`cypher/([^`]+\.cypher)`")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")

Place = tuple[str, int]
"""A file (relative to the repository) and a line number in it."""


def normal_lines(path: Path, root: Path) -> list[tuple[Place, str]]:
    """Return a Cypher file's lines that count, each with its place: ``//`` comments
    (outside strings) and blank lines dropped, white space folded."""
    name = path.relative_to(root).as_posix()
    kept = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        # Blank out strings first, so that a '//' inside one ('http://...') starts no comment.
        blanked = _STRING.sub(lambda match: "x" * len(match.group(0)), line)
        cut = blanked.find("//")
        text = " ".join((line if cut < 0 else line[:cut]).split())
        if text:
            kept.append(((name, number), text))
    return kept


def shared_runs(root: Path, min_lines: int = MIN_LINES) -> list[tuple[Place, Place, int]]:
    """Return each longest run of ``min_lines`` or more normal lines that stands in two
    places of the ``.cypher`` files below ``root``: where each copy starts and its length."""
    files = [normal_lines(path, root) for path in sorted(root.rglob("*.cypher"))]
    windows: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
    for f, lines in enumerate(files):
        for at in range(len(lines) - min_lines + 1):
            window = tuple(text for _, text in lines[at : at + min_lines])
            windows[window].append((f, at))

    def same(a: tuple[int, int], b: tuple[int, int]) -> bool:
        (fa, ia), (fb, ib) = a, b
        inside = 0 <= ia < len(files[fa]) and 0 <= ib < len(files[fb])
        return inside and files[fa][ia][1] == files[fb][ib][1]

    runs = []
    for places in windows.values():
        for n, a in enumerate(places):
            for b in places[n + 1 :]:
                if a[0] == b[0] and b[1] < a[1] + min_lines:
                    continue  # a run overlapping itself (a line repeated over and over)
                if same((a[0], a[1] - 1), (b[0], b[1] - 1)):
                    continue  # not where the run starts
                length = min_lines
                while same((a[0], a[1] + length), (b[0], b[1] + length)):
                    length += 1
                runs.append((files[a[0]][a[1]][0], files[b[0]][b[1]][0], length))
    return sorted(runs)


def allowed_pairs(doc: str) -> list[tuple[list[str], str]]:
    """Return the rows of the doc's section on what looks alike whose first column names
    ``cypher/`` files joined by ``~``: the files (relative to cypher/) and the reason (the
    last column). A row allows a run between any two files it names, and a run within a
    file it names twice."""
    section = doc.split(_SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        files = _CYPHER_FILE.findall(cells[0])
        if len(cells) >= 3 and len(files) >= 2:
            rows.append((files, cells[-1]))
    return rows


def is_allowed(a: str, b: str, allowed: list[tuple[list[str], str]]) -> bool:
    """Return True when a row of ``allowed`` names the files of a run between ``a`` and ``b``."""
    if a == b:
        return any(files.count(a) >= 2 for files, _ in allowed)
    return any(a in files and b in files for files, _ in allowed)


def unexplained(root: Path, allowed: list[tuple[list[str], str]]) -> list[str]:
    """Return each shared run below ``root`` whose pair of files is not allowed, as
    ``a.cypher:line ~ b.cypher:line (n lines)``."""
    return [
        f"{a[0]}:{a[1]} ~ {b[0]}:{b[1]} ({length} lines)"
        for a, b, length in shared_runs(root)
        if not is_allowed(a[0], b[0], allowed)
    ]


def test_every_shared_cypher_run_is_named_in_the_doc() -> None:
    allowed = allowed_pairs(DOC.read_text(encoding="utf-8"))
    found = unexplained(REPO / "cypher", allowed)
    assert not found, (
        "these Cypher files repeat six or more lines: write the rule once, or name the pair "
        "with its reason in docs/ARCHITECTURE.md ('What looks alike and stays'):\n"
        + "\n".join(found)
    )


def test_each_allowed_row_has_a_reason_and_still_repeats() -> None:
    allowed = allowed_pairs(DOC.read_text(encoding="utf-8"))
    assert allowed, "the doc's table names no Cypher files: the parse of its rows broke"
    runs = shared_runs(REPO / "cypher")
    for files, reason in allowed:
        assert len(reason) > 10, f"{files}: the doc gives no reason"
        used = [(a, b) for (a, _), (b, _), _ in runs if is_allowed(a, b, [(files, reason)])]
        assert used, f"{files} no longer repeat: take their row out of the doc"


_QUERY = """// a planted query
MATCH (p:Paper {key: $key})
WHERE p.year >= $since
WITH p, [(p)-[:CITES]->(q) | q.key] AS cited
RETURN p.key AS key,
       p.title AS title,
       size(cited) AS refs
ORDER BY key
"""


def test_a_planted_duplicate_fails(tmp_path: Path) -> None:
    (tmp_path / "load").mkdir()
    (tmp_path / "one.cypher").write_text(_QUERY, encoding="utf-8")
    # The same lines, other comments and spacing: still the same rule written twice.
    copy = _QUERY.replace("// a planted query", "// a copy\n\n").replace("       ", "  ")
    (tmp_path / "load" / "two.cypher").write_text("RETURN 1;\n" + copy, encoding="utf-8")
    (tmp_path / "other.cypher").write_text(
        _QUERY.replace("p.title", "p.year"), encoding="utf-8"
    )  # one line differs: no run of six left with one.cypher's, only five before it

    found = unexplained(tmp_path, [])
    assert found == ["load/two.cypher:5 ~ one.cypher:2 (7 lines)"]
    assert unexplained(tmp_path, [(["one.cypher", "load/two.cypher"], "why")]) == []
    assert unexplained(tmp_path, [(["one.cypher", "other.cypher"], "why")]) == found


@pytest.mark.parametrize(
    ("line", "normal"),
    [
        ("  MATCH   (p)  // the paper", "MATCH (p)"),
        ("RETURN 'http://x' AS url // a link", "RETURN 'http://x' AS url"),
        ("   // only a comment", ""),
    ],
)
def test_comments_and_spacing_do_not_count(tmp_path: Path, line: str, normal: str) -> None:
    (tmp_path / "q.cypher").write_text(line + "\n", encoding="utf-8")
    assert [text for _, text in normal_lines(tmp_path / "q.cypher", tmp_path)] == (
        [normal] if normal else []
    )
