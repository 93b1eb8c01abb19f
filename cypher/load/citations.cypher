// name: citations
// mode: write
// Upsert CITES edges, one per pair. Each edge keeps which snapshots asserted it (sorted,
// so the list does not depend on load order) and the first and last data dates it was
// seen at. An edge already known from the same snapshot
// and dates is left untouched, so loading the same data again writes nothing. A new edge
// stamps both papers' changed_at, which tells stored similarity (kg similar) it is stale.
// param rows: list[map]  one map per edge: citing, cited (node keys), snapshot, as_of (a date or null)
UNWIND $rows AS row
MATCH (a:Paper {key: row.citing})
MATCH (b:Paper {key: row.cited})
MERGE (a)-[r:CITES]->(b)
ON CREATE SET r.snapshots = [row.snapshot], r.first_seen = row.as_of, r.last_seen = row.as_of,
              a.changed_at = datetime.transaction(), b.changed_at = datetime.transaction()
WITH r, row
WHERE NOT row.snapshot IN r.snapshots
   OR (row.as_of IS NOT NULL AND (r.first_seen IS NULL OR row.as_of < r.first_seen
       OR r.last_seen IS NULL OR row.as_of > r.last_seen))
SET r.snapshots = CASE
      WHEN row.snapshot IN r.snapshots THEN r.snapshots
      ELSE [k IN r.snapshots WHERE k < row.snapshot] + row.snapshot
           + [k IN r.snapshots WHERE k > row.snapshot] END,
    r.first_seen = CASE
      WHEN row.as_of IS NULL THEN r.first_seen
      WHEN r.first_seen IS NULL OR row.as_of < r.first_seen THEN row.as_of
      ELSE r.first_seen END,
    r.last_seen = CASE
      WHEN row.as_of IS NULL THEN r.last_seen
      WHEN r.last_seen IS NULL OR row.as_of > r.last_seen THEN row.as_of
      ELSE r.last_seen END
