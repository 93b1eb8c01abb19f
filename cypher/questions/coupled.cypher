// name: coupled
// mode: read
// Bibliographic coupling: the papers sharing the most references with a paper. together
// is the number of shared references; cosine is together / sqrt(refs(a) * refs(b)); jaccard
// is together / |refs(a) ∪ refs(b)|. size_a and size_b are the reference counts of the
// two papers. Stubs take part and are flagged. Papers equal in together and cosine (the
// same number of references) come most cited in the map first, then by key.
// param key: str  node key of the paper
// param limit: int = 20  how many papers to return
MATCH (a:Paper {key: $key})-[:CITES]->(r:Paper)<-[:CITES]-(b:Paper)
WHERE b <> a
WITH a, b, count(DISTINCT r) AS together
WITH b, together, COUNT { (a)-[:CITES]->() } AS size_a,
     COUNT { (b)-[:CITES]->() } AS size_b, COUNT { (b)<-[:CITES]-() } AS cited_by
RETURN b.key AS key, b.arxiv_id AS arxiv_id, b.title AS title, b.year AS year,
       coalesce(b.stub, false) AS stub, together, size_a, size_b,
       toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine,
       toFloat(together) / (size_a + size_b - together) AS jaccard
ORDER BY together DESC, cosine DESC, cited_by DESC, key
LIMIT $limit
