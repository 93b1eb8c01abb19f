// name: overview
// mode: read
// The map at a glance, in one round trip (the web view's home page): how many papers
// (stubs among them), citations, authors and snapshots it holds and the newest data date
// of its snapshots; its $top most cited papers in the map; its $top most central by the
// PageRank `kg rank pagerank --write` stores (empty, with pagerank_at null, before that
// has run); every category that has papers, most papers first; and the $loads snapshots
// with the newest data, each with the papers it describes (the graph keeps no load time).
// param top: int = 10  how many most cited and most central papers to list
// param loads: int = 10  how many snapshots to list
RETURN COUNT { (:Paper) } AS papers,
       COUNT { (p:Paper) WHERE p.stub = true } AS stubs,
       COUNT { ()-[:CITES]->() } AS citations,
       COUNT { (:Author) } AS authors,
       COUNT { (:Snapshot) } AS snapshots,
       COLLECT {
         MATCH (s:Snapshot) WHERE s.data_date IS NOT NULL
         RETURN s.data_date ORDER BY s.data_date DESC LIMIT 1
       }[0] AS data_date,
       COLLECT {
         MATCH (p:Paper)
         WITH p, COUNT { (p)<-[:CITES]-() } AS cited_by
         ORDER BY cited_by DESC, p.key
         LIMIT $top
         RETURN p {.key, .arxiv_id, .title, .year, stub: coalesce(p.stub, false),
                   cited_by: cited_by, pagerank: p.pagerank}
       } AS most_cited,
       COLLECT {
         MATCH (r:AnalyticsRun {property: 'pagerank'}) RETURN r.computed_at LIMIT 1
       }[0] AS pagerank_at,
       COLLECT {
         MATCH (p:Paper) WHERE p.pagerank IS NOT NULL
         WITH p ORDER BY p.pagerank DESC, p.key LIMIT $top
         RETURN p {.key, .arxiv_id, .title, .year, stub: coalesce(p.stub, false),
                   cited_by: COUNT { (p)<-[:CITES]-() }, pagerank: p.pagerank}
       } AS most_central,
       COLLECT {
         MATCH (c:Category)
         WITH c, COUNT { (:Paper)-[:PRIMARY_CATEGORY]->(c) } AS primary,
              COUNT { (:Paper)-[:CROSS_LISTED]->(c) } AS cross_listed
         WHERE primary + cross_listed > 0
         RETURN c {.code, .name, .archive, primary: primary, cross_listed: cross_listed,
                   total: primary + cross_listed}
         ORDER BY primary + cross_listed DESC, c.code
       } AS categories,
       COLLECT {
         MATCH (s:Snapshot)
         RETURN s {.key, .kind, .source, .data_date, .loaded_by,
                   papers: COUNT { (s)<-[:DESCRIBED_IN]-() }}
         ORDER BY s.data_date IS NULL, s.data_date DESC, s.source, s.key
         LIMIT $loads
       } AS loads
