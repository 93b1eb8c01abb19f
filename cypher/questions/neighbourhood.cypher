// name: neighbourhood
// mode: read
// The papers within $hops citation hops of a paper, following CITES in either direction,
// each with its distance (the fewest hops) and its citations in the map (cited_by), nearest
// first and, at one distance, the most cited first (then by key); the list is paged by
// $offset and $limit, and total counts it all. The expansion is a breadth-first search to
// 3 hops at most.
// param key: str  node key of the paper at the centre
// param hops: int = 2  how many hops to go out, 1 to 3
// param limit: int = 50  how many papers to return at most
// param offset: int = 0  how many papers of the list to skip
MATCH (p:Paper {key: $key})
OPTIONAL MATCH path = (p)-[:CITES*1..3]-(q:Paper)
WHERE q <> p
WITH q, min(length(path)) AS distance
WHERE q IS NOT NULL AND distance <= $hops
WITH q, distance, COUNT { (q)<-[:CITES]-() } AS cited_by
ORDER BY distance, cited_by DESC, q.key
WITH collect(q {.key, .arxiv_id, .title, .year, stub: coalesce(q.stub, false),
                distance: distance, cited_by: cited_by}) AS near
RETURN size(near) AS total, near[$offset..][..$limit] AS papers
