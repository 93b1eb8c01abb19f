// name: similar_coupled_stored
// mode: read
// Bibliographic coupling read from the COUPLED relationships `kg similar --write` stores:
// the same columns and order as coupled.cypher, for a limit up to the run's k. Check
// similar_answer first: the stored lists are only as new as the run.
// param key: str  node key of the paper
// param limit: int = 20  how many papers to return
MATCH (:Paper {key: $key})-[s:COUPLED]->(b:Paper)
RETURN b.key AS key, b.arxiv_id AS arxiv_id, b.title AS title, b.year AS year,
       coalesce(b.stub, false) AS stub, s.together AS together, s.size_a AS size_a,
       s.size_b AS size_b, s.cosine AS cosine, s.jaccard AS jaccard
ORDER BY s.rank
LIMIT $limit
