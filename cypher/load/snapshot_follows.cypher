// name: snapshot_follows
// mode: write
// An incremental load (kg load NEW --since OLD): the newer snapshot of a source follows the
// older one, and restates `unchanged` of its records as they were; only the records that
// changed were written, and the others keep their links to the older snapshot.
// param snapshot: str  the newer snapshot's key
// param since: str  the older snapshot's key
// param unchanged: int  records of the newer snapshot that the older one states as they are
MATCH (new:Snapshot {key: $snapshot})
MATCH (old:Snapshot {key: $since})
WHERE new <> old
MERGE (new)-[f:FOLLOWS]->(old)
// The test and the write are one FOREACH, so the plan holds no Eager
FOREACH (_ IN CASE WHEN f.unchanged IS NULL OR f.unchanged <> $unchanged THEN [1] ELSE [] END |
  SET f.unchanged = $unchanged
)
