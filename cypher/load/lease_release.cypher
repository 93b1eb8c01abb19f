// name: lease_release
// mode: write
// Give up a lease taken with lease_take: the load or unmerge that held it has ended.
// param lease: str  the lease's id
MATCH (l:LoadLease {lease: $lease})
DETACH DELETE l
