// name: paper_references
// mode: read
// The papers a paper cites (its references in the map), most cited first. stated_cited_by
// is the count the newest DESCRIBED_IN link of the reference states, else the reference's
// own stated_cited_by; graph_cited_by counts its incoming CITES; cited_by is the stated
// count when there is one, else the graph's, and is what the list is sorted by; ties go to
// the most cited in the graph. $offset and $limit page through the list.
// param key: str  node key of the citing paper
// param offset: int = 0  how many papers of the list to skip
// param limit: int = null  how many papers to return; null for all
MATCH (:Paper {key: $key})-[:CITES]->(r:Paper)
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
SKIP $offset
LIMIT coalesce($limit, 2147483647)
