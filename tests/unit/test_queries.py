"""The query library: every .cypher file parses, declares its mode and exactly the params it
uses; folders are namespaces; a query runs itself as its mode says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg import queries
from kg.cli import main
from kg.errors import ParameterError, QueryFileError, QueryNotFound

FOLDERS = {"", "questions", "browser", "search", "load", "analytics", "export"}


def test_every_query_file_parses_and_declares_its_mode() -> None:
    library = queries.all_queries()
    root = queries.cypher_dir()
    files = sorted(
        ".".join(p.relative_to(root).with_suffix("").parts) for p in root.rglob("*.cypher")
    )
    assert sorted(library) == files
    for full_name, query in library.items():
        assert query.doc, f"{query.path} has no description lines"
        assert query.mode in ("read", "write", "auto", "script")
        header = query.path.read_text(encoding="utf-8").splitlines()[:2]
        assert header == [f"// name: {query.name}", f"// mode: {query.mode}"], query.path
        assert full_name == query.full_name
    assert set(queries.namespaces()) == FOLDERS


def test_folders_are_namespaces() -> None:
    cocited = queries.get("questions.cocited")
    assert cocited.name == "cocited"
    assert cocited.namespace == "questions"
    assert cocited.path == queries.cypher_dir() / "questions" / "cocited.cypher"
    assert queries.questions.cocited is cocited
    assert queries.get("cocited") is cocited
    assert queries.get("schema").full_name == "schema"
    assert queries.load.papers.full_name == "load.papers"
    with pytest.raises(AttributeError, match=r"no query named 'questions\.nope'"):
        _ = queries.questions.nope
    with pytest.raises(AttributeError):
        _ = queries.nowhere


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param(
            "papers",
            "more than one query is named 'papers': analytics.papers, export.papers, load.papers. "
            "Use the full name, with its folder",
            id="a-short-name-two-folders-share",
        ),
        pytest.param(
            "cocitd",
            "no query named 'cocitd'. Did you mean cocited or cocited_graph? "
            "`kg queries` lists them all",
            id="unknown-with-near-names",
        ),
        pytest.param(
            "nosuch",
            "no query named 'nosuch'. "
            "`kg queries` lists the questions; `kg queries --all` lists every query",
            id="no-poor-match-and-no-name-twice",  # was "Did you mean schema or schema?"
        ),
    ],
)
def test_a_name_that_is_not_one_query_is_refused_saying_why(name: str, message: str) -> None:
    with pytest.raises(QueryNotFound) as caught:
        queries.get(name)
    assert str(caught.value) == message


def test_an_unknown_name_with_no_near_names_points_to_every_query() -> None:
    with pytest.raises(QueryNotFound) as caught:
        queries.get("zzzzzz")
    assert "`kg queries --all` lists every query" in str(caught.value)


def test_every_question_has_a_short_name_of_its_own() -> None:
    library = queries.all_queries().values()
    for query in library:
        if queries.is_question(query):
            assert queries.get(query.name) is query


def test_a_file_without_a_mode_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "q", "// name: q\n// A query.\nRETURN 1\n")
    with pytest.raises(QueryFileError, match=r"q.cypher:2: no `// mode:` header line"):
        queries.parse_query_file(path)


def test_schema_is_a_script_of_idempotent_statements() -> None:
    schema = queries.get("schema")
    assert schema.mode == "script"
    assert len(schema.statements) >= 5
    assert all("IF NOT EXISTS" in statement for statement in schema.statements)
    assert any("FULLTEXT" in statement for statement in schema.statements)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.cypher"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(
            "// name: q\n// mode: read\n// A query.\nMATCH (p:Paper)\nWHERE p.key = $key\n"
            "RETURN p\n",
            "5: $key is used but not declared",
            id="undeclared",
        ),
        pytest.param(
            "// name: q\n// mode: read\n// A query.\n// param key: str\n// param n: int = 3\n"
            "RETURN $key\n",
            "5: $n is declared but not used",
            id="unused",
        ),
    ],
)
def test_a_param_used_or_declared_alone_is_refused_with_file_and_line(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = _write(tmp_path, "q", text)
    with pytest.raises(QueryFileError) as caught:
        queries.parse_query_file(path)
    assert f"{path}:{problem}" in str(caught.value)


def test_params_inside_strings_and_comments_do_not_count(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "q",
        "// name: q\n// mode: read\n// Doc.\n// param key: str\n"
        "RETURN $key, '$notaparam' // $nor_this\n",
    )
    assert [p.name for p in queries.parse_query_file(path).params] == ["key"]


def test_name_must_match_file_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "right", "// name: wrong\n// Doc.\nRETURN 1\n")
    with pytest.raises(QueryFileError, match=r"right.cypher:1: query name 'wrong'"):
        queries.parse_query_file(path)


def test_missing_name_and_unknown_type_are_refused(tmp_path: Path) -> None:
    with pytest.raises(QueryFileError, match="no `// name: a` header"):
        queries.parse_query_file(_write(tmp_path, "a", "// Doc.\nRETURN 1\n"))
    with pytest.raises(QueryFileError, match=r"b.cypher:2: parameter \$x has unknown type 'dict'"):
        queries.parse_query_file(_write(tmp_path, "b", "// name: b\n// param x: dict\nRETURN $x\n"))


def test_bind_fills_defaults_and_coerces_cli_strings(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "q",
        "// name: q\n// mode: read\n// Doc.\n// param key: str\n// param limit: int = 20\n"
        "// param ids: list[str] = []\n// param stubs: bool = true\n"
        "RETURN $key, $limit, $ids, $stubs\n",
    )
    query = queries.parse_query_file(path)
    assert query.bind({"key": "x"}) == {"key": "x", "limit": 20, "ids": [], "stubs": True}
    assert query.bind({"key": "x", "limit": "5", "ids": "a,b", "stubs": "false"}) == {
        "key": "x",
        "limit": 5,
        "ids": ["a", "b"],
        "stubs": False,
    }
    with pytest.raises(ParameterError, match=r"needs \$key"):
        query.bind({})
    with pytest.raises(ParameterError, match=r"has no parameter \$nope"):
        query.bind({"key": "x", "nope": 1})
    with pytest.raises(ParameterError, match=r"\$limit wants int, got 'many'"):
        query.bind({"key": "x", "limit": "many"})


def test_questions_are_told_from_internal_queries() -> None:
    library = queries.all_queries()
    questions = {name for name, query in library.items() if queries.is_question(query)}
    assert {"questions.cocited", "browser.cocited_graph", "questions.shortest_path"} <= questions
    assert {"schema", "load.papers", "analytics.projection", "export.papers"} <= (
        set(library) - questions
    )


def test_a_map_param_takes_a_dict_or_json(tmp_path: Path) -> None:
    path = _write(
        tmp_path, "q", "// name: q\n// mode: write\n// Doc.\n// param m: map\nRETURN $m\n"
    )
    query = queries.parse_query_file(path)
    assert query.bind({"m": {"a": None}}) == {"m": {"a": None}}
    assert query.bind({"m": '{"a": 1}'}) == {"m": {"a": 1}}
    with pytest.raises(ParameterError, match=r"\$m wants map"):
        query.bind({"m": "[1]"})


def test_only_write_queries_give_counters_and_only_transactional_ones_run_inside_one() -> None:
    with pytest.raises(ParameterError, match="is a read query, with no write counters"):
        queries.questions.cocited.run_counters(None, key="x")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="runs as an auto-commit transaction"):
        queries.analytics.clear_paper_values.run_in(None, nulls={})  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="runs as an auto-commit transaction"):
        queries.get("schema").run_records(None)  # type: ignore[arg-type]


class _Recorder:
    """Stands in for Database: records which of its executors a query called."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    def read(self, query: str, params: object) -> list[dict[str, object]]:
        self.calls.append(("read", query, params))
        return []

    def write(self, query: str, params: object) -> list[dict[str, object]]:
        self.calls.append(("write", query, params))
        return []

    def run_autocommit(
        self, query: str, params: object = None, *, retry: bool = False
    ) -> list[dict[str, object]]:
        self.calls.append(("auto" if retry else "script", query, params))
        return []


def test_run_picks_the_executor_from_the_declared_mode() -> None:
    db = _Recorder()
    queries.questions.cocited.run(db, key="x")  # type: ignore[arg-type]
    queries.load.unmerge.run(db, key="x", record="x ", keys=[], norm_titles=[], sources=[])  # type: ignore[arg-type]
    queries.analytics.clear_paper_values.run(db, nulls={"pagerank": None})  # type: ignore[arg-type]
    queries.get("schema").run(db)  # type: ignore[arg-type]
    modes = [mode for mode, _, _ in db.calls]
    schema = queries.get("schema")
    assert modes == ["read", "write", "auto"] + ["script"] * len(schema.statements)
    assert db.calls[0][2] == {"key": "x", "limit": 20}


def test_kg_queries_lists_the_questions_by_folder_and_all_with_all() -> None:
    result = CliRunner().invoke(main, ["queries", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)["results"]
    folders = [row["folder"] for row in listed]
    assert folders == sorted(folders, key=("questions", "browser", "search").index)
    assert "questions.cocited" in {row["name"] for row in listed}
    everything = json.loads(CliRunner().invoke(main, ["queries", "--all", "--json"]).output)
    assert {row["folder"] for row in everything["results"]} == FOLDERS
    table = CliRunner().invoke(main, ["queries"], env={"COLUMNS": "200"})
    assert "cypher/questions/" in table.output
    assert "cypher/browser/" in table.output
    assert "cypher/search/" in table.output
    assert "cypher/load/" not in table.output


def test_kg_query_refuses_an_ambiguous_short_name_before_connecting() -> None:
    result = CliRunner().invoke(main, ["query", "papers"])
    assert result.exit_code == 1
    assert result.output == (
        "Error: more than one query is named 'papers': analytics.papers, export.papers, "
        "load.papers. Use the full name, with its folder\n"
    )
