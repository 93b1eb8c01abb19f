// name: like_this
// mode: read
// "More like this": the papers nearest in meaning to one paper, by the text embeddings
// `kg embed` stored and the vector index paper_embedding, best first, each with its cosine
// similarity to the paper (-1 to 1). Nothing when the paper has no embedding. The index
// searches its graph as widely as the papers it is asked for, so ask for $candidates well
// above $limit: asked for 2, it may miss the nearest.
// param key: str  node key of the paper, e.g. 'hep-th/9906064'
// param candidates: int = 100  how many nearest papers the index returns
// param limit: int = 10  how many papers to return
MATCH (p:Paper {key: $key})
WHERE p.embedding IS NOT NULL
CALL db.index.vector.queryNodes('paper_embedding', $candidates, p.embedding)
YIELD node AS q, score
WHERE q <> p
RETURN q.key AS key, q.arxiv_id AS arxiv_id, q.title AS title, q.year AS year,
       coalesce(q.stub, false) AS stub, 2 * score - 1 AS similarity,
       COUNT { (q)<-[:CITES]-() } AS cited_by
ORDER BY similarity DESC, key
LIMIT $limit
