"""How print_table fits a table to the terminal: which cells are cut, and from which side."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from kg.cli.app import Column, print_table


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
