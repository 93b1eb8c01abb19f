"""Issue 41, "Hardening, second round", the parts that need no server: a JSON number beyond a
float for an int parameter (case 11), text that is not UTF-8 (4), how text reaches a terminal
(20) and the clauses a search near a title sends to Lucene (13)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kg import queries
from kg.cli import main
from kg.cli.tables import clean
from kg.errors import ParameterError, UnknownReference
from kg.refs import fuzzy_title_query, parse_ref
from loaders.errors import printable

# 11: an int parameter given 1e999


@pytest.mark.parametrize("value", ["1e999", "-1e999"])
def test_a_limit_beyond_a_float_is_a_parameter_error(value: str) -> None:
    result = CliRunner().invoke(
        main, ["query", "cocited", "--param", "key=2005.00001", "--param", f"limit:={value}"]
    )
    assert result.exit_code == 2, (result.output, result.exception)  # a ParameterError
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.output == (
        f"Error: parameter $limit wants int, got {float(value)!r}. Pass an int value\n"
    )


def test_bind_refuses_infinity_for_an_int() -> None:
    with pytest.raises(ParameterError, match=r"\$limit wants int, got inf"):
        queries.get("cocited").bind({"key": "2005.00001", "limit": float("inf")})


# 4: a lone surrogate (argv bytes that are not UTF-8) is refused before any query


@pytest.mark.parametrize("ref", ["\udcff", "\udced\udca0\udc80", "hep-th/9711200\ud800"])
def test_a_ref_that_is_not_valid_text_is_a_parameter_error(ref: str) -> None:
    with pytest.raises(ParameterError, match="is not valid text") as raised:
        parse_ref(ref)
    assert ascii(ref)[1:-1] in str(raised.value)  # escaped, so that it prints anywhere
    assert str(raised.value).isascii()  # and it can be written out anywhere


def test_a_query_parameter_that_is_not_valid_text_is_a_parameter_error() -> None:
    with pytest.raises(ParameterError, match=r"\$key is '\\udcff', which is not valid text"):
        queries.get("paper_by_key").bind({"key": "\udcff"})


# 20: bidirectional controls, and 4: lone surrogates, on a terminal

BIDI = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
BIDI += [0x200E, 0x200F, 0x061C]


@pytest.mark.parametrize("code", BIDI)
def test_a_bidi_control_prints_as_its_escape(code: int) -> None:
    text = f"abc{chr(code)}def"
    for shown in (printable(text), clean(text)):
        assert shown == f"abc\\u{code:04x}def"


def test_a_lone_surrogate_prints_as_its_escape() -> None:
    assert printable("a\udcffb\ud800") == "a\\udcffb\\ud800"
    assert clean("a\udcffb").encode("utf-8") == b"a\\udcffb"


def test_other_text_prints_as_it_is() -> None:
    text = "Théorie des cordes, Ǆ, 弦理论, نظرية الأوتار, \u200d\U0001f600"
    assert printable(text) == text
    assert printable("bell\x07") == "bell\\x07"


def test_an_unknown_reference_says_its_ref_escaped() -> None:
    error = UnknownReference("exe.\u202etxt", [])
    assert "\u202e" not in str(error)
    assert "\\u202e" in str(error)


# 13: a search near a long title stays within Lucene's 1,024 clauses (its maxClauseCount)


def test_a_fuzzy_query_stays_under_lucenes_1024_clauses() -> None:
    text = " ".join(f"longword{i}" for i in range(1100))
    assert len(fuzzy_title_query(text).split()) <= 1024
