"""The direction of imports: the rooms and floors docs/ARCHITECTURE.md declares are the truth
(every module in a room, every import downward or level, no circle between rooms, each room's
arrows as drawn), and the parsers stand alone."""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TREE = ("kg", "loaders")


def imported_modules(path: Path) -> set[str]:
    """Return the absolute module names a file imports (relative imports are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_parsers_import_nothing_from_kg() -> None:
    files = sorted((REPO / "loaders").glob("*.py"))
    assert len(files) >= 10
    offenders = {
        f"{path.name}: {name}"
        for path in files
        for name in imported_modules(path)
        if name.split(".")[0] in {"kg", "loaders"}
    }
    assert not offenders, "loaders/ imports its siblings relatively and nothing of kg/"


def test_no_symlink_is_tracked() -> None:
    """A link breaks a Windows checkout and hides a package's importers: none is tracked."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing is tracked")
    listing = subprocess.run(
        ["git", "ls-files", "--stage"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(listing) > 100
    links = [line.split("\t", 1)[1] for line in listing if line.startswith("120000 ")]
    assert not links, f"tracked symlinks: {links}"
    assert not (REPO / "kg" / "loaders").exists(), "the parsers are the package loaders"


@dataclass
class Room:
    """A room of docs/ARCHITECTURE.md: a folder (``kg/cli/``) or a module (``kg/refs.py``)."""

    name: str
    floor: int
    arrows: set[str] = field(default_factory=set)

    def holds(self, path: str) -> bool:
        """Return whether the file ``path`` (relative to the checkout) is in this room."""
        return path.startswith(self.name) if self.name.endswith("/") else path == self.name


def declared_rooms(text: str) -> dict[str, Room]:
    """Return the rooms of the ```rooms block of ``text``: a line ``FLOOR ROOM what belongs
    there`` starts a room, indented lines go on with it, and a ``→`` line (which may go on
    over indented lines of room names) names the rooms it imports. Raises AssertionError
    when there is no such block or a room is named twice."""
    block = re.search(r"^```rooms\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert block, "docs/ARCHITECTURE.md has no ```rooms block"
    rooms: dict[str, Room] = {}
    room: Room | None = None
    in_arrows = False
    for line in block.group(1).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        start = re.match(r"\s*(\d+)\s+(\S+)\s", line + " ")
        if start and not line.startswith("      "):
            assert start.group(2) not in rooms, f"room {start.group(2)} is named twice"
            room = rooms[start.group(2)] = Room(start.group(2), int(start.group(1)))
            in_arrows = False
            continue
        assert room is not None, f"a line before the first room: {line!r}"
        words = line.split()
        if words[0] == "→":
            in_arrows = True
            words = words[1:]
        if in_arrows:
            room.arrows.update(words)
    return rooms


def modules() -> dict[str, Path]:
    """Return every module of the tree by its dotted name (a package by its folder's)."""
    found: dict[str, Path] = {}
    for top in TREE:
        for path in sorted((REPO / top).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _under_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Yield every import below ``node``, in functions too, but none under TYPE_CHECKING."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _under_type_checking(child):
            for other in child.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _imports(child)


def arrows(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Return the modules of the tree that module ``name`` imports: ``from kg import queries``
    is kg.queries, ``from kg.answers import X`` is kg.answers, a relative import is read from
    the module's package; a name outside the tree is left out."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: list[str] = []
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
            continue
        base = node.module or ""
        if node.level:
            base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
        targets += [f"{base}.{alias.name}" for alias in node.names]
    found: set[str] = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def room_of(path: Path, rooms: dict[str, Room]) -> Room | None:
    """Return the room a file is in: the module room that is the file, else the folder room
    that holds it."""
    relative = path.relative_to(REPO).as_posix()
    holding = [room for room in rooms.values() if room.holds(relative)]
    return max(holding, key=lambda room: len(room.name), default=None)


def room_arrows() -> tuple[dict[str, Room], dict[tuple[str, str], list[str]]]:
    """Return the declared rooms and, for each pair of rooms an import joins, the imports
    (``module -> module``) that join them."""
    rooms = declared_rooms((REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    known = modules()
    joined: dict[tuple[str, str], list[str]] = {}
    for name, path in known.items():
        source = room_of(path, rooms)
        for target in sorted(arrows(name, path, known)):
            goal = room_of(known[target], rooms)
            if source and goal and source is not goal:
                joined.setdefault((source.name, goal.name), []).append(f"{name} -> {target}")
    return rooms, joined


def test_every_module_is_in_a_room_and_every_room_exists() -> None:
    rooms, _ = room_arrows()
    assert len(rooms) >= 10
    homeless = [
        path.relative_to(REPO).as_posix()
        for path in modules().values()
        if room_of(path, rooms) is None
    ]
    assert not homeless, f"in no room of docs/ARCHITECTURE.md: {homeless}"
    missing = [
        name
        for name in rooms
        if not (REPO / name / "__init__.py" if name.endswith("/") else REPO / name).is_file()
    ]
    assert not missing, f"rooms of docs/ARCHITECTURE.md that do not exist: {missing}"


def test_no_import_runs_upward() -> None:
    rooms, joined = room_arrows()
    upward = [
        f"{source} (floor {rooms[source].floor}) imports {goal} (floor {rooms[goal].floor}): "
        + ", ".join(imports)
        for (source, goal), imports in sorted(joined.items())
        if rooms[source].floor < rooms[goal].floor
    ]
    assert not upward, "\n".join(upward)


def test_no_circle_between_rooms() -> None:
    _, joined = room_arrows()
    after: dict[str, set[str]] = {}
    for source, goal in joined:
        after.setdefault(source, set()).add(goal)
    done: set[str] = set()

    def walk(room: str, trail: list[str]) -> None:
        if room in trail:
            circle = [*trail[trail.index(room) :], room]
            pytest.fail("a circle of imports: " + " -> ".join(circle))
        if room in done:
            return
        for goal in sorted(after.get(room, ())):
            walk(goal, [*trail, room])
        done.add(room)

    for room in sorted(after):
        walk(room, [])


def test_each_rooms_arrows_are_drawn_as_they_are() -> None:
    rooms, joined = room_arrows()
    unknown = sorted({goal for room in rooms.values() for goal in room.arrows} - rooms.keys())
    assert not unknown, f"arrows to rooms that are not declared: {unknown}"
    drawn = {(room.name, goal) for room in rooms.values() for goal in room.arrows}
    undrawn = [
        f"{pair[0]} → {pair[1]}: {joined[pair][0]}" for pair in sorted(joined.keys() - drawn)
    ]
    assert not undrawn, "imports docs/ARCHITECTURE.md does not draw:\n" + "\n".join(undrawn)
    stale = sorted(f"{source} → {goal}" for source, goal in drawn - joined.keys())
    assert not stale, f"arrows docs/ARCHITECTURE.md draws that no import makes: {stale}"


def test_the_walk_sees_lazy_imports_and_not_type_checking_ones() -> None:
    known = modules()
    face = arrows("kg.knowledge_graph", known["kg.knowledge_graph"], known)
    assert {"kg.plots", "kg.load.pipeline", "kg.load.bulk"} <= face  # imported in methods
    assert "kg.server.config" not in face  # LocalSettings, for the annotations only
    assert "loaders.titles" in arrows("loaders.text", known["loaders.text"], known)
