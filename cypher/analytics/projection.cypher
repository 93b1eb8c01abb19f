// name: projection
// mode: read
// The citation graph the analytics run on, as one row: the keys of the papers in scope
// (ordered by key, so node order and seeded results do not depend on storage order) and,
// for each, the keys of the papers in scope it cites. Only citations between papers in
// scope count. A year range leaves out papers whose year is unknown; a category keeps the
// papers with that primary category (stubs have none). read_at is the start of the
// transaction that read it (datetime.transaction(), the clock loads stamp changed_at with):
// a similarity run records it as computed_at.
// param include_stubs: bool = true  keep stubs, papers known only from reference lists
// param category: str = null  primary category code, e.g. 'hep-th'; null for all
// param year_from: int = null  first year in scope; null for no lower bound
// param year_to: int = null  last year in scope; null for no upper bound
MATCH (p:Paper)
WHERE ($include_stubs OR NOT coalesce(p.stub, false))
  AND ($category IS NULL OR p.primary_category = $category)
  AND ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
WITH p ORDER BY p.key
RETURN collect(p.key) AS keys,
       collect([(p)-[:CITES]->(q:Paper)
         WHERE ($include_stubs OR NOT coalesce(q.stub, false))
           AND ($category IS NULL OR q.primary_category = $category)
           AND ($year_from IS NULL OR q.year >= $year_from)
           AND ($year_to IS NULL OR q.year <= $year_to)
         | q.key]) AS cites,
       toString(datetime.transaction()) AS read_at
