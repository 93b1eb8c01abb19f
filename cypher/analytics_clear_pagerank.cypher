// name: analytics_clear_pagerank
// mode: auto
// Remove the pagerank property and the PageRankTop1 and PageRankTop10 labels from every
// Paper, in batches, before a new run writes its values, so papers outside the new run's
// scope keep no stale value. Uses CALL { } IN TRANSACTIONS: it runs as an auto-commit
// transaction (:auto in Browser).
// param batch_size: int = 10000  papers per transaction
MATCH (p:Paper)
WHERE p.pagerank IS NOT NULL OR p:PageRankTop1 OR p:PageRankTop10
CALL (p) {
  REMOVE p.pagerank, p:PageRankTop1, p:PageRankTop10
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(p) AS cleared
