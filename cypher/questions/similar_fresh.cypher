// name: similar_fresh
// mode: read
// Whether the stored CO_CITED or COUPLED relationships of a paper answer a question of
// $limit papers: a similarity run ($run: co_cited or coupled) is recorded with k >= $limit,
// and since it read the graph (computed_at) no load has touched the paper, a paper it cites
// or is cited by, or a paper in its stored lists (loads stamp Paper.changed_at; a paper
// without the stamp has not changed since stamping began). Those are all the papers whose
// change can alter its top-k: a new shared citer or reference stamps a neighbour, a new
// citation of a listed paper changes that paper's size.
// A stamp equal to computed_at counts as a change: the run's read and a load that began
// at the same instant may not have seen each other.
// param key: str  node key of the paper
// param run: str  'co_cited' or 'coupled'
// param limit: int = 20  how many papers the question asks for
OPTIONAL MATCH (r:AnalyticsRun {key: $run})
OPTIONAL MATCH (p:Paper {key: $key})
WITH r, p, r.computed_at AS since
RETURN r IS NOT NULL AS has_run, r.k AS k, coalesce(r.k >= $limit, false) AS enough,
       since AS computed_at,
       coalesce(p.changed_at >= since, false) AS paper_changed,
       CASE WHEN r IS NULL OR p IS NULL THEN false
            ELSE EXISTS { MATCH (p)-[:CITES]-(q:Paper) WHERE q.changed_at >= since }
              OR EXISTS { MATCH (p)-[:CO_CITED|COUPLED]->(q:Paper) WHERE q.changed_at >= since }
       END AS neighbour_changed
