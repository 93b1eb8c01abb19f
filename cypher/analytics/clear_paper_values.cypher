// name: clear_paper_values
// mode: auto
// Remove an analysis's properties from every Paper that has any of them, in batches, before
// a new run writes its values, so papers outside the new run's scope keep no stale value.
// $nulls maps each property to null (e.g. {pagerank: null}), and SET p += $nulls removes
// them; with $tiers the PageRankTop1 and PageRankTop10 labels go too. Uses
// CALL { } IN TRANSACTIONS: it runs as an auto-commit transaction (:auto in Browser).
// param nulls: map  the properties to remove, each mapped to null, e.g. {pagerank: null}
// param tiers: bool = false  also remove the PageRank tier labels
// param batch_size: int = 10000  papers per transaction
MATCH (p:Paper)
WHERE any(name IN keys($nulls) WHERE p[name] IS NOT NULL)
  OR ($tiers AND (p:PageRankTop1 OR p:PageRankTop10))
CALL (p) {
  SET p += $nulls
  FOREACH (_ IN CASE WHEN $tiers THEN [1] ELSE [] END | REMOVE p:PageRankTop1, p:PageRankTop10)
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(p) AS cleared
