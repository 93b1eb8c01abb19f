// name: papers_by_key_prefix
// mode: read
// Papers whose node key starts with $prefix (an index seek on the key), in key order: the
// candidates near an arXiv id that matched no paper, for "did you mean" suggestions.
// param prefix: str  the start of a node key, e.g. 'hep-th/97112'
// param limit: int = 200  how many keys at most
MATCH (p:Paper)
WHERE p.key STARTS WITH $prefix
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub
ORDER BY key
LIMIT $limit
