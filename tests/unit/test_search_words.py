"""The words a title search sends to the full-text index (kg.refs.first_words): at most
MAX_SEARCH_WORDS, counted as Lucene's standard tokenizer splits text, so that a query stays
within Lucene's 1,024 clauses even as a fuzzy search (two clauses a word)."""

from __future__ import annotations

from kg.refs import MAX_SEARCH_WORDS, first_words, fuzzy_title_query


def test_the_limit_fits_lucenes_clauses() -> None:
    assert MAX_SEARCH_WORDS == 256  # tests/integration/test_hardening_face.py says 256
    assert 2 * MAX_SEARCH_WORDS <= 1024


def test_first_words_keeps_the_limit() -> None:
    words = [f"w{i}" for i in range(1100)]
    kept, cut = first_words(" ".join(words))
    assert kept.split() == words[:MAX_SEARCH_WORDS]
    assert cut
    kept, cut = first_words("-".join(words))
    assert kept == "-".join(words[:MAX_SEARCH_WORDS])
    assert cut
    assert first_words(" ".join(words[:MAX_SEARCH_WORDS]) + " !!") == (
        " ".join(words[:MAX_SEARCH_WORDS]),
        False,
    )
    assert first_words("漢" * 1000) == ("漢" * MAX_SEARCH_WORDS, True)
    assert first_words("a few words") == ("a few words", False)


def test_a_fuzzy_query_keeps_the_first_words() -> None:
    text = " ".join(f"longword{i}" for i in range(1100))
    terms = fuzzy_title_query(text).split()
    assert terms[:2] == ["longword0", "longword0~1"]
    assert terms[-1] == f"longword{MAX_SEARCH_WORDS - 1}~1"
    assert len(terms) == 2 * MAX_SEARCH_WORDS
