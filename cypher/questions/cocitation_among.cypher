// name: cocitation_among
// mode: read
// Co-citation among a set of papers: every pair of them that some paper cites together,
// once (a.key < b.key), with the number of shared citers (together) and cosine (Salton),
// together / sqrt(citers(a) * citers(b)), as cocited.cypher scores them. The web view's
// co-citation layer draws these as the edges between the papers it shows.
// param keys: list[str]  node keys of the papers shown
MATCH (a:Paper)
WHERE a.key IN $keys
MATCH (a)<-[:CITES]-(c:Paper)-[:CITES]->(b:Paper)
WHERE b.key IN $keys AND a.key < b.key
WITH a, b, count(DISTINCT c) AS together
WITH a, b, together, COUNT { (a)<-[:CITES]-() } AS size_a, COUNT { (b)<-[:CITES]-() } AS size_b
RETURN a.key AS a, b.key AS b, together, size_a, size_b,
       toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine
ORDER BY a, b
