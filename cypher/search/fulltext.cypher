// name: fulltext
// mode: read
// Papers whose title matches a Lucene query on the full-text index paper_title_fulltext,
// best match first, within a year range and a category, each with its citations in the map
// and, given a query vector, its cosine similarity to it (null for a paper without a
// vector). Escape Lucene's special characters in user text before passing it.
// param query: str  a Lucene query, e.g. 'black hole entropy'
// param limit: int = 20  how many papers to return
// param vector: list[float] = null  a query embedding to compare each paper with; null for none
// param category: str = null  a category code, primary or cross-listed, e.g. 'hep-th'; null for all
// param year_from: int = null  first year; null for no lower bound
// param year_to: int = null  last year; null for no upper bound
CALL db.index.fulltext.queryNodes('paper_title_fulltext', $query) YIELD node AS p, score
WHERE ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
  AND ($category IS NULL OR p.primary_category = $category
       OR EXISTS { (p)-[:CROSS_LISTED]->(:Category {code: $category}) })
WITH p, score
ORDER BY score DESC, p.key
LIMIT $limit
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub, score,
       CASE WHEN $vector IS NULL OR p.embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(p.embedding, $vector) - 1 END AS similarity,
       COUNT { (p)<-[:CITES]-() } AS cited_by
