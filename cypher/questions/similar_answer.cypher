// name: similar_answer
// mode: read
// A co-citation or coupling question in one round trip: the paper keyed $key (no row when
// no paper has that key), whether the stored CO_CITED or COUPLED lists of the run $run
// answer a question of $limit papers about it, and, when they do, its top $limit from them
// (the rows of similar_cocited_stored.cypher or similar_coupled_stored.cypher).
// The lists are fresh when a similarity run is recorded with k >= $limit and, since it read
// the graph (computed_at), no load has touched the paper, a paper it cites or is cited by,
// or a paper in its stored lists (loads stamp Paper.changed_at; a paper without the stamp
// has not changed since stamping began). Those are all the papers whose change can alter
// its top-k: a new shared citer or reference stamps a neighbour, a new citation of a listed
// paper changes that paper's size. When no paper at all has a stamp that new (one seek of
// the paper_changed_at index) the neighbours are not read, so a hub costs what a leaf does.
// A stamp equal to computed_at counts as a change: the run's read and a load that began
// at the same instant may not have seen each other.
// param key: str  node key of the paper
// param run: str  'co_cited' or 'coupled'
// param limit: int = 20  how many papers the question asks for
MATCH (p:Paper {key: $key})
OPTIONAL MATCH (r:AnalyticsRun {key: $run})
WITH p, r, r.computed_at AS since
// any paper stamped since the run: a seek of the paper_changed_at index, at most one row
OPTIONAL CALL (since) {
  MATCH (q:Paper) WHERE q.changed_at >= since
  RETURN true AS any_changed
  LIMIT 1
}
WITH p, r, since, any_changed, coalesce(r.k >= $limit, false) AS enough,
     coalesce(p.changed_at >= since, false) AS paper_changed
WITH p, r, since, enough, paper_changed,
     CASE
       WHEN r IS NULL OR NOT enough OR paper_changed OR any_changed IS NULL THEN false
       ELSE EXISTS { MATCH (p)-[:CITES]-(q:Paper) WHERE q.changed_at >= since }
         OR EXISTS { MATCH (p)-[:CO_CITED|COUPLED]->(q:Paper) WHERE q.changed_at >= since }
     END AS neighbour_changed
WITH p, r, since, enough, paper_changed, neighbour_changed,
     r IS NOT NULL AND enough AND NOT paper_changed AND NOT neighbour_changed AS fresh
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub,
       r IS NOT NULL AS has_run, r.k AS k, enough, since AS computed_at, paper_changed,
       neighbour_changed,
       CASE WHEN fresh THEN COLLECT {
         MATCH (p)-[s:CO_CITED|COUPLED]->(b:Paper)
         WHERE type(s) = CASE $run WHEN 'co_cited' THEN 'CO_CITED' ELSE 'COUPLED' END
         RETURN {key: b.key, arxiv_id: b.arxiv_id, title: b.title, year: b.year,
                 stub: coalesce(b.stub, false), together: s.together, size_a: s.size_a,
                 size_b: s.size_b, cosine: s.cosine, jaccard: s.jaccard} AS row
         ORDER BY s.rank
         LIMIT $limit
       } ELSE [] END AS results
