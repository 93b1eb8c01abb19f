// name: neighbourhood_top
// mode: read
// The $limit papers most cited in the graph within $hops citation hops of a paper
// (following CITES in either direction; ties by key) and every citation among them and
// the paper: the graph view's citations layer. total counts all the papers within the hops;
// keys starts with the paper's own; citations holds [citing key, cited key] pairs.
// Each hop count is one expansion to distinct papers, which Neo4j runs breadth-first without
// listing paths (neighbourhood.cypher lists them to give each paper its distance, many times
// slower on a hub).
// param key: str  node key of the paper at the centre
// param hops: int = 1  how many hops to go out, 1 to 3
// param limit: int = 30  how many papers to keep, the most cited first
MATCH (p:Paper {key: $key})
WITH p, COLLECT {
  MATCH (p)-[:CITES]-(q:Paper)
  WHERE q <> p
  RETURN q
  UNION
  MATCH (p)-[:CITES*1..2]-(q:Paper)
  WHERE $hops >= 2 AND q <> p
  RETURN q
  UNION
  MATCH (p)-[:CITES*1..3]-(q:Paper)
  WHERE $hops >= 3 AND q <> p
  RETURN q
} AS near
WITH p, size(near) AS total, COLLECT {
  UNWIND near AS q
  WITH q, COUNT { (q)<-[:CITES]-() } AS cited_by
  ORDER BY cited_by DESC, q.key
  LIMIT $limit
  RETURN q
} AS top
WITH total, [p] + top AS shown
RETURN total, [s IN shown | s.key] AS keys, COLLECT {
  UNWIND shown AS a
  MATCH (a)-[:CITES]->(b:Paper)
  WHERE b IN shown
  WITH a.key AS citing, b.key AS cited
  ORDER BY citing, cited
  RETURN [citing, cited]
} AS citations
