// name: like_this_citing
// mode: read
// Papers like this one that also cite X: the papers nearest in meaning to one paper (its
// text embedding, through the vector index paper_embedding) that cite another paper, best
// first, with their cosine similarity. The index's $candidates nearest papers are then
// matched against the citation pattern, so a rarely cited X wants more candidates.
// param key: str  node key of the paper the meaning comes from, e.g. 'hep-th/9906064'
// param cited: str  node key of the paper the results must cite, e.g. 'hep-th/9711200'
// param candidates: int = 200  how many nearest papers the index returns before the pattern
// param limit: int = 10  how many papers to return
MATCH (p:Paper {key: $key}), (x:Paper {key: $cited})
WHERE p.embedding IS NOT NULL
CALL db.index.vector.queryNodes('paper_embedding', $candidates, p.embedding)
YIELD node AS q, score
WHERE q <> p AND (q)-[:CITES]->(x)
RETURN q.key AS key, q.arxiv_id AS arxiv_id, q.title AS title, q.year AS year,
       coalesce(q.stub, false) AS stub, 2 * score - 1 AS similarity,
       COUNT { (q)<-[:CITES]-() } AS cited_by
ORDER BY similarity DESC, key
LIMIT $limit
