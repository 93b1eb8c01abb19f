"""How print_table fits a table to the terminal: which cells are cut, and from which side."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from kg.cli.tables import Column, print_table, render_rows


def _table(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    columns: int,
    *args: object,
) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))
    print_table(*args)  # type: ignore[arg-type]
    return capsys.readouterr().out.splitlines()


def test_a_path_is_cut_from_the_left_so_its_file_name_shows(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [f"examples/map/a/long/folder/of/pages/{name}.txt" for name in ("attention", "bert")]
    lines = _table(
        monkeypatch,
        capsys,
        50,
        (Column("file", flex=True, cut_left=True), Column("format"), Column("read", "right")),
        [[path, "map_page", 10] for path in paths],
    )
    assert all(cell_len(line) <= 50 for line in lines)
    assert any("…" in line and "/attention.txt │" in line for line in lines)
    assert any("/bert.txt" in line for line in lines)


def test_fixed_columns_keep_their_width_and_the_table_fits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "questions.all_shortest_paths_undirected"  # as `kg queries` lists it
    lines = _table(
        monkeypatch,
        capsys,
        80,
        (
            Column("name"),
            Column("mode"),
            Column("params", flex=True),
            Column("what it answers", flex=True),
        ),
        [[name, "read", "source: str, target: str, max_hops: int", "All shortest paths " * 5]],
    )
    assert all(cell_len(line) <= 80 for line in lines), [cell_len(line) for line in lines]
    assert all(line[-1] in "┓┃┩│┘" for line in lines if line[:1] in "┏┃┡│└")  # border kept
    assert any(f"│ {name} │ read │" in line for line in lines)
    assert any("┃ mode ┃" in line for line in lines)


def test_a_narrow_title_wraps_instead_of_being_cut_to_a_stub(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    title = "The Large N Limit of Superconformal Field Theories and Supergravity"
    numbers = [Column(name, "right") for name in ("traction", "recent", "expected", "cohort")]
    lines = _table(
        monkeypatch,
        capsys,
        80,
        (
            Column("#", "right"),
            Column("ref"),
            Column("year", "right"),
            Column("title", flex=True),
            *numbers,
        ),
        [["1", "hep-th/9711200", "1997", title, "194.28", "872", "3.49", "2,673"]],
    )
    assert all(cell_len(line) <= 80 for line in lines)
    shown = " ".join(line.split("│")[4].strip() for line in lines if line.startswith("│"))
    assert shown.startswith("The Large N Limit")


def test_query_rows_too_wide_for_the_terminal_are_listed_field_by_field(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    row = {
        "key": "hep-th/9802150",
        "arxiv_id": "hep-th/9802150",
        "title": "Anti De Sitter Space And Holography",
        "year": 1998,
        "stub": False,
        "together": 1655,
        "size_a": 2414,
        "size_b": 1775,
        "cosine": 0.8,
        "jaccard": 0.653,
    }
    render_rows([row, row], title="cocited")
    out = capsys.readouterr().out
    assert all(cell_len(line) <= 80 for line in out.splitlines())
    assert "hep-th/9802150 " in out
    assert "hep-…" not in out
    assert out.count("│ jaccard  │ 0.653") == 2


def test_low_value_columns_make_room_for_a_title_before_it_is_squeezed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    title = "Supersymmetric Yang-Mills Theories and Integrable Spin Chains at Strong Coupling"
    lines = _table(
        monkeypatch,
        capsys,
        80,
        (
            Column("#", "right"),
            Column("ref"),
            Column("year", "right"),
            Column("title", flex=True),
            Column("traction", "right"),
            Column("recent", "right", drop=1),
            Column("expected", "right", drop=2),
            Column("cohort", "right", drop=3),
        ),
        [["1", "hep-th/9711200", "1997", title, "194.28", "872", "3.49", "2673"]],
    )
    assert all(cell_len(line) <= 80 for line in lines)
    header = next(line for line in lines if line.startswith("┃"))
    assert "cohort" not in header
    assert "expected" not in header
    assert lines[-1] == "left out for room: cohort, expected, recent (wider terminal or --json)"
    cells = [line.split("│")[4].strip() for line in lines if line.startswith("│")]
    assert len(cells[0]) >= 30 - 2
    assert " ".join(cells) == title  # wrapped at word boundaries: every word whole


def test_a_title_past_three_lines_ends_after_a_whole_word(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    title = " ".join(["Holography"] * 20)
    lines = _table(
        monkeypatch,
        capsys,
        50,
        (Column("ref"), Column("title", flex=True)),
        [["hep-th/9711200", title]],
    )
    cells = [line.split("│")[2].strip() for line in lines if line.startswith("│")]
    assert len(cells) == 3
    assert cells[-1].endswith("Holography…")
    assert all(word == "Holography" for word in " ".join(cells).rstrip("…").split())
