// name: lease_renew
// mode: write
// Renew a lease taken with lease_take, so that it is not taken for stale; a long load renews
// its lease as it goes.
// param lease: str  the lease's id
MATCH (l:LoadLease {lease: $lease})
SET l.renewed = datetime()
RETURN count(l) AS renewed
