// name: cocited
// mode: read
// Co-citation: the papers most often cited together with a paper, i.e. sharing a citing
// paper with it. together is the number of shared citers; cosine (Salton) is
// together / sqrt(citers(a) * citers(b)); jaccard is together / |citers(a) ∪ citers(b)|.
// size_a and size_b are the citer counts of the two papers. Stubs take part and are flagged.
// Papers equal in together and cosine have as many citers, so they are as cited in the map
// too: the key decides between them.
// CITES joins papers only, so the counts need no label on the far end: Neo4j then reads
// them from the node's degree instead of walking every relationship (30x on a hub paper).
// param key: str  node key of the paper
// param limit: int = 20  how many papers to return
MATCH (a:Paper {key: $key})<-[:CITES]-(c:Paper)-[:CITES]->(b:Paper)
WHERE b <> a
WITH a, b, count(DISTINCT c) AS together
WITH b, together, COUNT { (a)<-[:CITES]-() } AS size_a,
     COUNT { (b)<-[:CITES]-() } AS size_b
RETURN b.key AS key, b.arxiv_id AS arxiv_id, b.title AS title, b.year AS year,
       coalesce(b.stub, false) AS stub, together, size_a, size_b,
       toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine,
       toFloat(together) / (size_a + size_b - together) AS jaccard
ORDER BY together DESC, cosine DESC, key
LIMIT $limit
