// name: semantic
// mode: read
// Papers nearest in meaning to a query vector (an embedding by the model `kg embed` used)
// through the vector index paper_embedding, best first, each with its cosine similarity
// (-1 to 1; the index scores (1 + cosine) / 2), its citations in the map and its first
// authors (what a search shows beside each title: one round trip answers it). The filters
// apply to the $candidates nearest papers the index returns, so ask for more candidates
// than $limit when a filter is set; the index also searches its graph only as widely as
// $candidates, so ask for well above $limit always (asked for 2, it may miss the nearest). In Browser, set $vector from a paper's own:
// :param vector => head(collect { MATCH (p:Paper {key: 'hep-th/9906064'}) RETURN p.embedding })
// param vector: list[float]  the query's embedding
// param candidates: int = 100  how many nearest papers the index returns before filtering
// param limit: int = 20  how many papers to return
// param exclude: list[str] = []  node keys to leave out (the paper a "more like this" starts from)
// param category: str = null  a category code, primary or cross-listed, e.g. 'hep-th'; null for all
// param year_from: int = null  first year; null for no lower bound
// param year_to: int = null  last year; null for no upper bound
// param authors: int = 3  how many of each paper's authors to return
CALL db.index.vector.queryNodes('paper_embedding', $candidates, $vector)
YIELD node AS p, score
WHERE NOT p.key IN $exclude
  AND ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
  AND ($category IS NULL OR p.primary_category = $category
       OR EXISTS { (p)-[:CROSS_LISTED]->(:Category {code: $category}) })
WITH p, 2 * score - 1 AS similarity
ORDER BY similarity DESC, p.key
LIMIT $limit
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub, similarity,
       COUNT { (p)<-[:CITES]-() } AS cited_by,
       COLLECT {
         MATCH (a:Author)-[w:AUTHORED]->(p)
         RETURN a.name ORDER BY w.position, a.key LIMIT $authors
       } AS authors,
       COUNT { (:Author)-[:AUTHORED]->(p) } AS author_count
ORDER BY similarity DESC, key
