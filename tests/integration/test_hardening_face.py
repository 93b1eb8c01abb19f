"""Issue 41, "Hardening, second round", on a real Neo4j: what the CLI, the Python face and the
web view do with text that is not UTF-8 (case 4), a search of more words than Lucene takes in
one query (13), a Host header that names another site (14), a read-only `kg cypher` that
calls server procedures (15) and bidirectional controls in a title (20).

Each test is the issue's reproduction, or its smallest form; the command line ones that hinge
on argv bytes run `kg` as a process, so that the bytes reach it as a shell would pass them.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner, Result
from neo4j import GraphDatabase
from starlette.testclient import TestClient

from kg.cli import main
from kg.database import Database
from kg.errors import KGError, ParameterError
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from kg.web import create_app
from tests.conftest import free_port
from tests.data import EXAMPLES, SEED_PAGE, SEED_RECORD

KG = Path(sys.executable).with_name("kg")
SEARCH_WORDS = 256  # kg.refs.MAX_SEARCH_WORDS, which tests/unit/test_search_words.py checks
LOCAL = "http://127.0.0.1"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
BIDI_TITLE = f"Spoofed gnirts\u202e txt.exe {BIDI} end"


@pytest.fixture(scope="module")
def face_map(
    session_graph: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Database]:
    """The small map, loaded once for the module (no test here writes to it), and 2101.99999,
    a paper citing 2110.03888 whose title holds every bidirectional control (BIDI_TITLE)."""
    clear_database(session_graph)
    rejects = tmp_path_factory.mktemp("face") / "r.jsonl"
    KnowledgeGraph.on(session_graph).load(
        [EXAMPLES / "map", SEED_PAGE, SEED_RECORD], rejects_path=rejects
    )
    session_graph.write(
        "MERGE (p:Paper {key: '2101.99999'}) SET p.arxiv_id = '2101.99999', p.title = $title, "
        "p.year = 2021, p.stub = false "
        "WITH p MATCH (q:Paper {key: '2110.03888'}) MERGE (p)-[:CITES]->(q)",
        {"title": BIDI_TITLE},
    )
    yield session_graph
    clear_database(session_graph)


def _kg(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """Run the `kg` program with these argv words (bytes pass as they are)."""
    return subprocess.run(
        [str(KG), *args], capture_output=True, env=os.environ.copy(), timeout=120, check=False
    )


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def _refused(result: Result, *words: str, code: int = 1) -> str:
    """Assert a command ended with one clean `Error:` and exit ``code`` (2 for a
    ParameterError, a usage error); return its output."""
    assert result.exit_code == code, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith("Error: "), result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


# 4: text that is not UTF-8


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["paper", b"\xff"], "Error: the paper reference '\\udcff' is not valid text"),
        (["search", b"\xed\xa0\x80"], "Error: text '\\udced\\udca0\\udc80' is not valid text"),
        (["query", "paper_by_key", "-p", b"key=\xff"], "Error: parameter $key is '\\udcff'"),
        (["cypher", "RETURN $x AS x", "-p", b"x=\xff"], "Error: a text passed to the query"),
        (["author", b"\xff"], "Error: name '\\udcff' is not valid text"),
    ],
    ids=["paper", "search", "query", "cypher", "author"],
)
def test_argv_bytes_that_are_not_utf8_are_a_clear_error(
    face_map: Database, kg_env: Connection, argv: list[str | bytes], said: str
) -> None:
    done = _kg(*argv)
    assert done.returncode == 2, done  # a ParameterError: a usage error
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert done.stderr.decode("utf-8").startswith(said), done.stderr
    assert "not UTF-8" in done.stderr.decode("utf-8")


def test_argv_bytes_with_json_are_a_json_error(face_map: Database, kg_env: Connection) -> None:
    done = _kg("paper", b"\xff", "--json")
    assert done.returncode == 2, done
    error = json.loads(done.stdout.decode("utf-8"))["error"]
    assert error["message"].startswith("the paper reference '\\udcff' is not valid text")


@pytest.mark.parametrize("question", ["paper", "resolve", "search", "cocited", "author"])
def test_the_face_raises_parameter_error_for_a_lone_surrogate(
    face_map: Database, neo4j_connection: Connection, question: str
) -> None:
    with (
        KnowledgeGraph.connect(neo4j_connection) as graph,
        pytest.raises(ParameterError, match="not valid text") as raised,
    ):
        getattr(graph, question)("\ud800")
    assert isinstance(raised.value, KGError)
    assert "\\ud800" in str(raised.value)  # escaped, so that it prints


# 13: more search words than Lucene's 1,024 clauses

MANY_WORDS = "attention " + " ".join(f"word{i}" for i in range(1100))
MANY_JOINED = "-".join(["attention", *(f"word{i}" for i in range(1100))])


@pytest.mark.parametrize("text", [MANY_WORDS, MANY_JOINED], ids=["spaces", "hyphens"])
def test_a_search_of_1100_words_searches_the_first_ones(
    face_map: Database, kg_env: Connection, text: str
) -> None:
    result = _run("search", text)
    assert result.exit_code == 0, result.output
    assert "Neo4j refused" not in result.output
    assert "1706.03762" in result.output  # Attention Is All You Need, by its first word
    assert f"the title search used the first {SEARCH_WORDS} words" in result.output
    data = json.loads(_run("search", text, "--json").output)
    assert "1706.03762" in [hit["key"] for hit in data["results"]]
    assert f"first {SEARCH_WORDS} words" in data["note"]


def test_the_face_searches_1100_words(face_map: Database, neo4j_connection: Connection) -> None:
    with KnowledgeGraph.connect(neo4j_connection) as graph:
        found = graph.search(MANY_WORDS)
    assert "1706.03762" in [hit.key for hit in found.results]
    assert found.note is not None
    assert f"first {SEARCH_WORDS} words" in found.note


def test_a_long_unknown_title_is_no_such_paper(face_map: Database, kg_env: Connection) -> None:
    unknown = " ".join(f"nosuchword{i}" for i in range(1100))
    _refused(_run("paper", unknown), "Error: no paper matches 'nosuchword0 nosuchword1")


def test_ideographs_beyond_the_limit_are_searched_too(
    face_map: Database, kg_env: Connection
) -> None:
    # Lucene takes each Han ideograph as a word of its own: 1,500 in one run of text.
    result = _run("search", "漢" * 1500)
    assert result.exit_code == 0, result.output
    assert f"the title search used the first {SEARCH_WORDS} words" in result.output
    _refused(_run("paper", "漢" * 1500), "Error: no paper matches")


@pytest.fixture
def client(face_map: Database, neo4j_connection: Connection) -> Iterator[TestClient]:
    app = create_app(lambda: KnowledgeGraph.connect(neo4j_connection))
    with TestClient(app, base_url=LOCAL) as web:
        yield web


def test_the_web_view_searches_1100_words(client: TestClient) -> None:
    page = client.get("/search", params={"q": MANY_WORDS})
    assert page.status_code == 200
    assert 'href="/paper/1706.03762"' in page.text
    assert f"the title search used the first {SEARCH_WORDS} words" in page.text
    missing = client.get("/paper/" + quote(" ".join(f"nosuchword{i}" for i in range(1100))))
    assert missing.status_code == 404
    assert "no paper matches" in missing.text


def test_an_error_page_is_titled_by_what_went_wrong(client: TestClient) -> None:
    bad = client.get("/graph", params={"ref": "1810.04805", "layer": "x"})
    assert bad.status_code == 400
    assert "<title>not found" not in bad.text
    assert "<h1>Cannot answer that</h1>" in bad.text
    assert "<h1>Not found</h1>" in client.get("/no/such/page").text


# 14: the Host header


@pytest.mark.parametrize("path", ["/", "/paper/2110.03888", "/export?around=2110.03888"])
def test_a_host_header_of_another_site_gets_400(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 200  # the same request by a local name
    page = client.get(path, headers={"Host": "evil.example.com"})
    assert page.status_code == 400
    assert "evil.example.com" in page.text
    assert "--allow-host" in page.text
    assert "<graphml" not in page.text
    assert "2110.03888" not in page.text


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8765", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST."]
)
def test_the_loopback_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/paper/2110.03888", headers={"Host": host}).status_code == 200


def test_allowed_hosts_add_names(face_map: Database, neo4j_connection: Connection) -> None:
    app = create_app(
        lambda: KnowledgeGraph.connect(neo4j_connection), allowed_hosts=["map.example.org"]
    )
    with TestClient(app, base_url="http://map.example.org") as web:
        assert web.get("/").status_code == 200
        assert web.get("/", headers={"Host": "127.0.0.1"}).status_code == 200
        assert web.get("/", headers={"Host": "evil.example.com"}).status_code == 400


def _get(port: int, path: str, host: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_kg_serve_answers_only_its_names(face_map: Database, kg_env: Connection) -> None:
    port = free_port()
    served = subprocess.Popen(
        [str(KG), "serve", "--port", str(port), "--allow-host", "map.example.org"],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert served.stdout is not None
        assert served.stdout.readline().startswith(f"the map: http://127.0.0.1:{port}/")
        status, body = _get(port, "/export?around=2110.03888", "evil.example.com")
        assert status == 400, body
        assert "<graphml" not in body
        assert _get(port, "/paper/2110.03888", f"127.0.0.1:{port}")[0] == 200
        assert _get(port, "/paper/2110.03888", f"localhost:{port}")[0] == 200
        assert _get(port, "/paper/2110.03888", "map.example.org")[0] == 200
    finally:
        served.send_signal(signal.SIGINT)
        _, errors = served.communicate(timeout=30)
    assert "Traceback" not in errors


# 15: procedures in a read-only `kg cypher`


def test_kill_connection_of_a_loader_is_refused(
    face_map: Database, kg_env: Connection, neo4j_connection: Connection
) -> None:
    agent = "kg-test-loader/1.0"
    loader = GraphDatabase.driver(
        neo4j_connection.uri,
        auth=(neo4j_connection.user, neo4j_connection.password),
        user_agent=agent,
    )
    try:
        loader.verify_connectivity()
        with loader.session(database=neo4j_connection.database) as session:
            session.run("RETURN 1").consume()

        def loader_connections() -> list[str]:
            rows = face_map.read(
                "CALL dbms.listConnections() YIELD connectionId, userAgent "
                "WHERE userAgent STARTS WITH $agent RETURN connectionId",
                {"agent": agent},
            )
            return [row["connectionId"] for row in rows]

        before = loader_connections()
        assert before
        _refused(_run("cypher", "CALL dbms.listConnections()"), "dbms.listConnections", code=2)
        result = _run("cypher", "CALL dbms.killConnection($id)", "-p", f"id={before[0]}")
        _refused(result, "dbms.killConnection is not one of them", "--write", code=2)
        assert loader_connections() == before
        with loader.session(database=neo4j_connection.database) as session:
            assert session.run("RETURN 1 AS one").single(strict=True)["one"] == 1
    finally:
        loader.close()


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        ("CALL apoc.log.stream('debug.log')", "apoc.log.stream is not one of them"),
        ("CALL `dbms`.`listConnections`()", "dbms.listConnections is not one of them"),
        ("USE system CALL dbms.listConnections()", "dbms.listConnections is not one of them"),
        ("PROFILE CALL dbms.listConnections()", "dbms.listConnections is not one of them"),
        (
            "/* PROFILE */ PROFILE CALL dbms.listConnections() YIELD connectionId "
            "RETURN connectionId",
            "dbms.listConnections is not one of them",
        ),
        (
            "MATCH (p:Paper) WITH p LIMIT 1 CALL { CALL dbms.listConnections() "
            "YIELD connectionId RETURN connectionId } RETURN connectionId",
            "dbms.listConnections is not one of them",
        ),
        (
            "RETURN apoc.cypher.runFirstColumnSingle("
            "'CALL dbms.listConnections() YIELD connectionId RETURN connectionId', {}) AS id",
            "runs no Cypher held in a string",
        ),
        (
            "CALL apoc.cypher.run('CALL dbms.listConnections()', {})",
            "runs no Cypher held in a string",
        ),
        ("CALL db.clearQueryCaches()", "db.clearQueryCaches is not one of them"),
        ("CALL apoc.util.sleep(1)", "apoc.util.sleep is not one of them"),
    ],
)
def test_a_procedure_outside_the_read_list_is_refused(
    face_map: Database, kg_env: Connection, statement: str, named: str
) -> None:
    output = _refused(_run("cypher", statement), named, code=2)
    assert len(output.strip().splitlines()) == 1, output


@pytest.mark.parametrize(
    "statement",
    [
        "MATCH (p:Paper) RETURN count(p) AS papers",  # the README's examples
        "CALL db.labels() YIELD label RETURN count(label) AS n",
        "PROFILE CALL db.labels() YIELD label RETURN count(label) AS n",
        "CALL dbms.components() YIELD versions RETURN versions[0] AS n",
        "USE system CALL dbms.components() YIELD versions RETURN versions[0] AS n",
        "CALL db.index.fulltext.queryNodes('paper_title_fulltext', 'attention') "
        "YIELD node RETURN count(node) AS n",
        "MATCH (p:Paper {key: '2110.03888'}) CALL apoc.path.subgraphNodes(p, "
        "{relationshipFilter: 'CITES', maxLevel: 1}) YIELD node RETURN count(node) AS n",
        "RETURN apoc.text.join(['a', 'b'], '-') AS n",
        "SHOW INDEXES YIELD name RETURN count(name) AS n",
    ],
)
def test_reads_still_run(face_map: Database, kg_env: Connection, statement: str) -> None:
    result = _run("cypher", statement, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"], result.output


def test_the_readme_example_with_a_parameter_runs(face_map: Database, kg_env: Connection) -> None:
    statement = "MATCH (p:Paper) WHERE p.year = $year RETURN count(p) AS papers"
    result = _run("cypher", statement, "-p", "year:=2017", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"][0]["papers"] > 0


# 20: bidirectional controls in a title


def _no_raw_bidi(output: str) -> None:
    assert not any(char in output for char in BIDI), ascii(output)
    assert "gnirts\\u202e txt.exe" in output, output
    for char in BIDI:
        assert f"\\u{ord(char):04x}" in output, (char, output)


def test_bidi_controls_print_escaped_in_kg_paper(face_map: Database, kg_env: Connection) -> None:
    result = _run("paper", "2101.99999")
    assert result.exit_code == 0, result.output
    _no_raw_bidi(result.output)
    assert json.loads(_run("paper", "2101.99999", "--json").output)["title"] == BIDI_TITLE


def test_bidi_controls_print_escaped_in_kg_search(face_map: Database, kg_env: Connection) -> None:
    result = _run("search", "spoofed")
    assert result.exit_code == 0, result.output
    _no_raw_bidi(result.output)
    data = json.loads(_run("search", "spoofed", "--json").output)
    assert [hit["title"] for hit in data["results"]] == [BIDI_TITLE]
