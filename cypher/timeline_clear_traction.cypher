// name: timeline_clear_traction
// mode: auto
// Remove the traction properties from every Paper, in batches, before a new run
// writes its values, so papers outside the new run's scope keep no stale value. Uses
// CALL { } IN TRANSACTIONS: it runs as an auto-commit transaction (:auto in Browser).
// param batch_size: int = 10000  papers per transaction
MATCH (p:Paper)
WHERE p.traction IS NOT NULL
CALL (p) {
  REMOVE p.traction
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(p) AS cleared
