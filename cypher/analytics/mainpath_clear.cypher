// name: mainpath_clear
// mode: auto
// Before a main path run writes its own values: remove the main path flags (main_path,
// key_route) from every Paper, and the spc weight from every CITES relationship that is
// not between two papers of the new run's scope (the run itself sets or removes spc on
// every citation inside it), in batches. Uses CALL { } IN TRANSACTIONS: it runs as an
// auto-commit transaction (:auto in Browser).
// param include_stubs: bool = true  the new run keeps stubs
// param category: str = null  the new run's primary category; null for all
// param year_from: int = null  the new run's first year; null for no lower bound
// param year_to: int = null  the new run's last year; null for no upper bound
// param batch_size: int = 10000  papers or citations per transaction
CALL () {
  MATCH (p:Paper) WHERE p.main_path IS NOT NULL OR p.key_route IS NOT NULL
  RETURN p AS item
  UNION ALL
  MATCH (p:Paper)-[c:CITES]->(q:Paper)
  WHERE c.spc IS NOT NULL
    AND NOT (($include_stubs OR NOT coalesce(p.stub, false))
      AND ($category IS NULL OR p.primary_category = $category)
      AND ($year_from IS NULL OR p.year >= $year_from)
      AND ($year_to IS NULL OR p.year <= $year_to)
      AND ($include_stubs OR NOT coalesce(q.stub, false))
      AND ($category IS NULL OR q.primary_category = $category)
      AND ($year_from IS NULL OR q.year >= $year_from)
      AND ($year_to IS NULL OR q.year <= $year_to))
  RETURN c AS item
}
CALL (item) {
  REMOVE item.main_path, item.key_route, item.spc
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(item) AS cleared
