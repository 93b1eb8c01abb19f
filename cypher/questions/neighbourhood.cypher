// name: neighbourhood
// mode: read
// The papers within $hops citation hops of a paper, following CITES in either direction,
// each with its distance (the fewest hops), nearest first and capped at $limit; total
// counts them all. The expansion is a breadth-first search to 3 hops at most.
// param key: str  node key of the paper at the centre
// param hops: int = 2  how many hops to go out, 1 to 3
// param limit: int = 50  how many papers to return at most
MATCH (p:Paper {key: $key})
OPTIONAL MATCH path = (p)-[:CITES*1..3]-(q:Paper)
WHERE q <> p
WITH q, min(length(path)) AS distance
WHERE q IS NOT NULL AND distance <= $hops
WITH q, distance ORDER BY distance, q.key
WITH collect(q {.key, .arxiv_id, .title, .year, stub: coalesce(q.stub, false),
                distance: distance}) AS near
RETURN size(near) AS total, near[..$limit] AS papers
