// name: analytics_clear_outdegree
// mode: auto
// Remove the outdegree property from every Paper that has it, in batches, before a new run
// writes its values, so papers outside the new run's scope keep no stale value. Uses
// CALL { } IN TRANSACTIONS: it runs as an auto-commit transaction (:auto in Browser).
// param batch_size: int = 10000  papers per transaction
MATCH (p:Paper)
WHERE p.outdegree IS NOT NULL
CALL (p) {
  REMOVE p.outdegree
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(p) AS cleared
