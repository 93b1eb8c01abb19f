// name: category_report
// mode: read
// One category: its name and archive, how many papers have it as primary category or are
// cross-listed in it, and those papers, most cited in the map first (then by key), paged
// by $offset and $limit.
// param code: str  category code, e.g. 'cs.LG'
// param limit: int = 50  how many papers to list
// param offset: int = 0  how many papers of the list to skip
MATCH (c:Category {code: $code})
RETURN c.code AS code, c.name AS name, c.archive AS archive,
       COUNT { (:Paper)-[:PRIMARY_CATEGORY]->(c) } AS primary,
       COUNT { (:Paper)-[:CROSS_LISTED]->(c) } AS cross_listed,
       COLLECT {
         MATCH (p:Paper)-[r:PRIMARY_CATEGORY|CROSS_LISTED]->(c)
         WITH p, r, COUNT { (p)<-[:CITES]-() } AS graph_cited_by
         RETURN p {.key, .arxiv_id, .title, .year, stub: coalesce(p.stub, false),
                   role: CASE type(r) WHEN 'PRIMARY_CATEGORY' THEN 'primary' ELSE 'cross_listed' END,
                   graph_cited_by: graph_cited_by}
         ORDER BY graph_cited_by DESC, p.key
         SKIP $offset
         LIMIT $limit
       } AS papers
