"""The query library: every .cypher file parses and declares exactly the params it uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg import queries
from kg.errors import ParameterError, QueryFileError, QueryNotFound


def test_every_query_file_parses() -> None:
    library = queries.all_queries()
    files = sorted(p.stem for p in queries.cypher_dir().glob("*.cypher"))
    assert sorted(library) == files
    for query in library.values():
        assert query.doc, f"{query.path} has no description lines"
        assert query.mode in ("read", "write", "auto", "script")


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


def test_undeclared_param_is_refused_with_file_and_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path, "q", "// name: q\n// A query.\nMATCH (p:Paper)\nWHERE p.key = $key\nRETURN p\n"
    )
    with pytest.raises(QueryFileError) as caught:
        queries.parse_query_file(path)
    assert f"{path}:4: $key is used but not declared" in str(caught.value)


def test_unused_declared_param_is_refused_with_file_and_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "q",
        "// name: q\n// A query.\n// param key: str\n// param n: int = 3\nRETURN $key\n",
    )
    with pytest.raises(QueryFileError) as caught:
        queries.parse_query_file(path)
    assert f"{path}:4: $n is declared but not used" in str(caught.value)


def test_params_inside_strings_and_comments_do_not_count(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "q",
        "// name: q\n// Doc.\n// param key: str\nRETURN $key, '$notaparam' // $nor_this\n",
    )
    assert [p.name for p in queries.parse_query_file(path).params] == ["key"]


def test_name_must_match_file_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "right", "// name: wrong\n// Doc.\nRETURN 1\n")
    with pytest.raises(QueryFileError, match=r"right.cypher:1: query name 'wrong'"):
        queries.parse_query_file(path)


def test_missing_name_and_unknown_type_are_refused(tmp_path: Path) -> None:
    with pytest.raises(QueryFileError, match="no `// name: a` header"):
        queries.parse_query_file(_write(tmp_path, "a", "// Doc.\nRETURN 1\n"))
    with pytest.raises(QueryFileError, match=r"b.cypher:2: parameter \$x has unknown type 'map'"):
        queries.parse_query_file(_write(tmp_path, "b", "// name: b\n// param x: map\nRETURN $x\n"))


def test_bind_fills_defaults_and_coerces_cli_strings(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "q",
        "// name: q\n// Doc.\n// param key: str\n// param limit: int = 20\n"
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


def test_unknown_query_suggests_the_nearest_names() -> None:
    with pytest.raises(QueryNotFound) as caught:
        queries.get("cocitd")
    assert str(caught.value) == (
        "no query named 'cocitd'. Did you mean cocited or cocited_graph or common_citers? "
        "`kg queries` lists them all"
    )
    with pytest.raises(QueryNotFound) as caught:
        queries.get("zzzzzz")
    assert "`kg queries --all` lists every query" in str(caught.value)


def test_questions_are_told_from_internal_queries() -> None:
    names = set(queries.all_queries())
    questions = {name for name in names if queries.is_question(name)}
    assert {"cocited", "coupled", "paper_report", "shortest_path"} <= questions
    assert not {n for n in questions if n.startswith(("load_", "analytics_", "merge_"))}
    assert "schema" not in questions
    assert {"load_papers", "analytics_projection"} <= names - questions
