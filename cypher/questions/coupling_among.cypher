// name: coupling_among
// mode: read
// Bibliographic coupling among a set of papers: every pair of them that cites a common
// paper, once (a.key < b.key), with the number of shared references (together) and cosine,
// together / sqrt(refs(a) * refs(b)), as coupled.cypher scores them. The web view's
// coupling layer draws these as the edges between the papers it shows.
// param keys: list[str]  node keys of the papers shown
MATCH (a:Paper)
WHERE a.key IN $keys
MATCH (a)-[:CITES]->(r:Paper)<-[:CITES]-(b:Paper)
WHERE b.key IN $keys AND a.key < b.key
WITH a, b, count(DISTINCT r) AS together
WITH a, b, together, COUNT { (a)-[:CITES]->() } AS size_a, COUNT { (b)-[:CITES]->() } AS size_b
RETURN a.key AS a, b.key AS b, together, size_a, size_b,
       toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine
ORDER BY a, b
