// name: coupled_graph
// mode: read
// Bibliographic coupling drawn in Neo4j Browser: the paper, the papers sharing the most
// references with it, and between them a virtual COUPLED relationship (APOC core) carrying
// together (the shared references), cosine and Jaccard, as in coupled.cypher.
// param key: str  node key of the paper, e.g. 'hep-th/9711200'
// param limit: int = 20  how many papers to draw
MATCH (a:Paper {key: $key})-[:CITES]->(r:Paper)<-[:CITES]-(b:Paper)
WHERE b <> a
WITH a, b, count(DISTINCT r) AS together
WITH a, b, together, COUNT { (a)-[:CITES]->() } AS size_a, COUNT { (b)-[:CITES]->() } AS size_b
WITH a, b, together, toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine,
     toFloat(together) / (size_a + size_b - together) AS jaccard
ORDER BY together DESC, cosine DESC, b.key
LIMIT $limit
RETURN a, b,
       apoc.create.vRelationship(
         a, 'COUPLED', {together: together, cosine: cosine, jaccard: jaccard}, b
       ) AS coupled
