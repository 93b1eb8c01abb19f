// name: common_citers
// mode: read
// The papers that cite both of two papers, most cited first (cited_by: the stated count
// when there is one, else the graph's in-degree; both are returned).
// param a: str  node key of the first paper
// param b: str  node key of the second paper
MATCH (:Paper {key: $a})<-[:CITES]-(c:Paper)-[:CITES]->(:Paper {key: $b})
WITH c, COUNT { (c)<-[:CITES]-() } AS graph_cited_by,
     coalesce(COLLECT {
       MATCH (c)-[d:DESCRIBED_IN]->(s:Snapshot)
       WHERE d.stated_cited_by IS NOT NULL
       RETURN d.stated_cited_by ORDER BY d.as_of IS NULL, d.as_of DESC, s.data_date DESC LIMIT 1
     }[0], c.stated_cited_by) AS stated_cited_by
RETURN c.key AS key, c.arxiv_id AS arxiv_id, c.title AS title, c.year AS year,
       coalesce(c.stub, false) AS stub, stated_cited_by, graph_cited_by,
       coalesce(stated_cited_by, graph_cited_by) AS cited_by
ORDER BY cited_by DESC, graph_cited_by DESC, year DESC, key
