// name: search_titles
// mode: read
// Papers whose title matches a Lucene query on the full-text index paper_title_fulltext,
// best match first. Escape Lucene's special characters in user text before passing it.
// param query: str  a Lucene query, e.g. 'attention all you need'
// param limit: int = 20  how many hits to return
CALL db.index.fulltext.queryNodes('paper_title_fulltext', $query) YIELD node AS p, score
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub, score
ORDER BY score DESC, key
LIMIT $limit
