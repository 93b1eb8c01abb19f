// name: gds_projection
// mode: read
// Project the papers in scope and the citations between them into the GDS graph catalog
// under $graph_name, with the same scope rules as projection. Papers that cite
// nothing in scope are projected too. Needs the Graph Data Science plugin.
// param graph_name: str  name of the in-memory graph to create
// param undirected: list[str] = []  ['*'] to project the citations as undirected
// param include_stubs: bool = true  keep stubs, papers known only from reference lists
// param category: str = null  primary category code, e.g. 'hep-th'; null for all
// param year_from: int = null  first year in scope; null for no lower bound
// param year_to: int = null  last year in scope; null for no upper bound
MATCH (p:Paper)
WHERE ($include_stubs OR NOT coalesce(p.stub, false))
  AND ($category IS NULL OR p.primary_category = $category)
  AND ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
OPTIONAL MATCH (p)-[:CITES]->(q:Paper)
WHERE ($include_stubs OR NOT coalesce(q.stub, false))
  AND ($category IS NULL OR q.primary_category = $category)
  AND ($year_from IS NULL OR q.year >= $year_from)
  AND ($year_to IS NULL OR q.year <= $year_to)
RETURN gds.graph.project($graph_name, p, q, {}, {undirectedRelationshipTypes: $undirected})
