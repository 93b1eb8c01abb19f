// name: cocited_graph
// mode: read
// Co-citation drawn in Neo4j Browser: the paper, the papers most often cited together with
// it, and between them a virtual CO_CITED relationship (APOC core) carrying together (the
// shared citers), cosine and Jaccard, as in cocited.cypher. Style it with cypher/map.grass.
// param key: str  node key of the paper, e.g. 'hep-th/9711200'
// param limit: int = 20  how many papers to draw
MATCH (a:Paper {key: $key})<-[:CITES]-(c:Paper)-[:CITES]->(b:Paper)
WHERE b <> a
WITH a, b, count(DISTINCT c) AS together
WITH a, b, together, COUNT { (a)<-[:CITES]-() } AS size_a, COUNT { (b)<-[:CITES]-() } AS size_b
WITH a, b, together, toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine,
     toFloat(together) / (size_a + size_b - together) AS jaccard
ORDER BY together DESC, cosine DESC, b.key
LIMIT $limit
RETURN a, b,
       apoc.create.vRelationship(
         a, 'CO_CITED', {together: together, cosine: cosine, jaccard: jaccard}, b
       ) AS co_cited
