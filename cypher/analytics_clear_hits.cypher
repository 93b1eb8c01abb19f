// name: analytics_clear_hits
// mode: auto
// Remove the hits_authority and hits_hub properties from every Paper that has them, in
// batches, before a new run writes its values, so papers outside the new run's scope keep
// no stale value. Uses CALL { } IN TRANSACTIONS: it runs as an auto-commit transaction
// (:auto in Browser).
// param batch_size: int = 10000  papers per transaction
MATCH (p:Paper)
WHERE p.hits_authority IS NOT NULL OR p.hits_hub IS NOT NULL
CALL (p) {
  REMOVE p.hits_authority, p.hits_hub
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(p) AS cleared
