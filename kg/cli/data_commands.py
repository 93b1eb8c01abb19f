"""`kg data`: the public data sets the project names, found here or fetched and checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.progress import (
    BarColumn,
    DownloadColumn,
    TaskID,
    TextColumn,
    TransferSpeedColumn,
)

from kg import data
from kg.cli.app import KGGroup, emit_json, json_option, main
from kg.cli.tables import Column, clean, print_table, progress_bar


@main.group("data", cls=KGGroup)
def data_group() -> None:
    """The public data sets: where they come from, and getting them onto this machine.

    The project ships none of them. `kg data get` takes a set's files from $KG_DATA_DIR when
    they are there, else from its cache in $KG_HOME/data, else downloads them from the set's
    home page; each file is checked against the size and sha256 written in the project.

    Example: kg load --id-scheme snap-hepth $(kg data get cit-hepth)
    """


@data_group.command("list")
@json_option
def data_list(as_json: bool) -> None:
    """List the data sets `kg data get` knows, their homes and whether they are here.

    Example: kg data list
    """
    rows: list[dict[str, Any]] = []
    for item in data.DATA_SETS.values():
        try:
            here = data.find(item)
        except data.DataUnavailable:
            here = None
        rows.append(
            {
                "name": item.name,
                "title": item.title,
                "holds": item.papers,
                "home": item.home,
                "terms": item.terms,
                "id_scheme": item.id_scheme,
                "files": [
                    {"name": f.name, "url": f.url, "size": f.size, "sha256": f.sha256}
                    for f in item.files
                ],
                "here": [str(path) for path in here] if here else None,
            }
        )
    if as_json:
        emit_json({"results": rows})
        return
    print_table(
        [Column("name"), Column("what it holds", flex=True), Column("here", flex=True)],
        (
            [row["name"], row["holds"], "yes" if row["here"] else "no: kg data get " + row["name"]]
            for row in rows
        ),
    )


@data_group.command("get")
@click.argument("name")
@click.option(
    "--to",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder to keep the files in (default: $KG_HOME/data/NAME).",
)
@json_option
def data_get(name: str, to: Path | None, as_json: bool) -> None:
    """Put a data set's files on this machine, checked, and print their paths, one a line.

    Looks in $KG_DATA_DIR first (data/NAME/FILE, NAME/FILE or FILE under it), then in the
    cache, then downloads from the data set's home ($KG_DATA_URL names a mirror instead). A
    download shows its progress, is written beside its final name as FILE.part, resumes
    from there when run again after an interruption, and takes its final name only once its
    size and sha256 check out. Without a network it fails at once and says where to put
    the files.

    Example: kg load --id-scheme snap-hepth $(kg data get cit-hepth)
    """
    chosen = data.lookup(name)
    with progress_bar(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        as_json=as_json,
    ) as progress:
        tasks: dict[str, TaskID] = {}

        def show(file: str, have: int, total: int | None) -> None:
            if file not in tasks:
                tasks[file] = progress.add_task(f"fetching {file}", total=total)
            progress.update(tasks[file], completed=have, total=total)

        paths = data.get(chosen, to, progress=show)
    if as_json:
        emit_json(
            {
                "name": chosen.name,
                "id_scheme": chosen.id_scheme,
                "files": [str(path) for path in paths],
            }
        )
        return
    for path in paths:
        click.echo(clean(str(path)))
