// name: timeline_projection
// mode: read
// The citation graph the time analytics run on, as one row: for each paper in scope
// (ordered by key) its key, year, first-posted date (as text) and primary category, and the
// keys of the papers in scope it cites. Only citations between papers in scope count; a
// cited paper's citations per year are the years of the papers citing it. A year range
// leaves out papers whose year is unknown; a category keeps the papers with that primary
// category (stubs have none).
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
RETURN collect([p.key, p.year, toString(p.published), p.primary_category]) AS papers,
       collect([(p)-[:CITES]->(q:Paper)
         WHERE ($include_stubs OR NOT coalesce(q.stub, false))
           AND ($category IS NULL OR q.primary_category = $category)
           AND ($year_from IS NULL OR q.year >= $year_from)
           AND ($year_to IS NULL OR q.year <= $year_to)
         | q.key]) AS cites
