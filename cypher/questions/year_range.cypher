// name: year_range
// mode: read
// The first and the last year of the papers in the graph (no row when none has a year),
// read from the year index's two ends: the graph view's fixed colour scale.
CALL {
  MATCH (p:Paper)
  WHERE p.year IS NOT NULL
  RETURN p.year AS first
  ORDER BY p.year
  LIMIT 1
}
CALL {
  MATCH (p:Paper)
  WHERE p.year IS NOT NULL
  RETURN p.year AS last
  ORDER BY p.year DESC
  LIMIT 1
}
RETURN first, last
