// name: shared_references
// mode: read
// The papers both of two papers cite, most cited first (cited_by: the stated count when
// there is one, else the graph's in-degree; both are returned).
// param a: str  node key of the first paper
// param b: str  node key of the second paper
MATCH (:Paper {key: $a})-[:CITES]->(r:Paper)<-[:CITES]-(:Paper {key: $b})
WITH r, COUNT { (r)<-[:CITES]-() } AS graph_cited_by,
     coalesce(COLLECT {
       MATCH (r)-[d:DESCRIBED_IN]->(s:Snapshot)
       WHERE d.stated_cited_by IS NOT NULL
       RETURN d.stated_cited_by ORDER BY d.as_of IS NULL, d.as_of DESC, s.data_date DESC LIMIT 1
     }[0], r.stated_cited_by) AS stated_cited_by
RETURN r.key AS key, r.arxiv_id AS arxiv_id, r.title AS title, r.year AS year,
       coalesce(r.stub, false) AS stub, stated_cited_by, graph_cited_by,
       coalesce(stated_cited_by, graph_cited_by) AS cited_by
ORDER BY cited_by DESC, graph_cited_by DESC, year DESC, key
