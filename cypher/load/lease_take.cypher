// name: lease_take
// mode: write
// Take a lease on the graph's writes for a load or an unmerge, unless a lease of a kind that
// excludes it is held: loads run side by side, an unmerge runs alone. The gate is a lock
// stripe of its own (stripe -1), created and deleted within the transaction: its unique key
// makes every taker wait for the one before it to commit, so two takers never both see the
// other's kind missing, and nothing of it stays in the graph. A lease its holder stopped
// renewing for longer than its ttl (a process killed) is stale and removed here.
// Returns the leases that keep this one from being taken (none: it is taken).
// param lease: str  the new lease's id (a random uuid)
// param kind: str  what holds it: 'load' or 'unmerge'
// param excludes: list[str]  the kinds of lease that keep this one from being taken
// param ttl: int  seconds without renewal after which the lease is stale
MERGE (gate:TitleLock {stripe: -1})
SET gate.held = true
WITH gate
CALL () {
  MATCH (stale:LoadLease)
  WHERE stale.renewed < datetime() - duration({seconds: stale.ttl})
  DETACH DELETE stale
}
CALL () {
  OPTIONAL MATCH (other:LoadLease)
  WHERE other.kind IN $excludes AND other.lease <> $lease
  RETURN collect(other.kind + ' since ' + toString(other.taken)) AS holders
}
CALL (holders) {
  WITH holders WHERE size(holders) = 0
  CREATE (l:TitleLock:LoadLease {lease: $lease})
  SET l.kind = $kind, l.ttl = $ttl, l.taken = datetime(), l.renewed = datetime()
}
DETACH DELETE gate
RETURN holders
