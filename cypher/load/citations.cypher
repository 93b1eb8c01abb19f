// name: citations
// mode: write
// Upsert CITES edges, one per pair. Each edge keeps which snapshots asserted it (sorted,
// so the list does not depend on load order) and the first and last data dates it was
// seen at. When a source named either paper by a key that merged into it, the edge also
// keeps `named`: every (snapshot, citing key, cited key) its sources named, as
// 'snapshot|citing|cited', sorted (absent while every source named the two papers by
// their own keys), so which key each citation came under is known after a merge. An edge
// already known from the same snapshot, names and dates is left untouched, so loading the
// same data again writes nothing. A new edge stamps both papers' changed_at, which tells
// stored similarity (kg similar) it is stale.
// param rows: list[map]  one map per edge: citing, cited (node keys), snapshot, as_of (a date or null), named_citing, named_cited (the keys the source named, when they merged into citing or cited; else null)
UNWIND $rows AS row
MATCH (a:Paper {key: row.citing})
MATCH (b:Paper {key: row.cited})
WITH a, b, row,
     row.snapshot + '|' + coalesce(row.named_citing, row.citing) + '|'
       + coalesce(row.named_cited, row.cited) AS naming,
     coalesce(row.named_citing, row.citing) <> row.citing
       OR coalesce(row.named_cited, row.cited) <> row.cited AS aside
MERGE (a)-[r:CITES]->(b)
ON CREATE SET a.changed_at = datetime.transaction(), b.changed_at = datetime.transaction()
// Every read of the edge happens in the FOREACH that writes it, row by row, so the plan needs
// no Eager (a WHERE reading what a later SET writes makes the plan hold the whole batch).
// `old` is the edge's snapshots before this row, as earlier rows of this statement left
// them. A new edge has none yet: one whose first source named another key gets the
// snapshot only with its name (and not as one naming the two papers).
FOREACH (old IN CASE WHEN r.snapshots IS NULL OR NOT row.snapshot IN r.snapshots
   OR (aside OR r.named IS NOT NULL) AND NOT naming IN coalesce(r.named, [])
   OR (row.as_of IS NOT NULL AND (r.first_seen IS NULL OR row.as_of < r.first_seen
       OR r.last_seen IS NULL OR row.as_of > r.last_seen))
   THEN [coalesce(r.snapshots, [])] ELSE [] END |
  // `named` is written only where some source named another key: an edge no merge touched
  // never has it written (not even as null)
  FOREACH (_ IN CASE WHEN (aside OR r.named IS NOT NULL) AND NOT naming IN coalesce(r.named, [])
                THEN [1] ELSE [] END |
    SET r.named = COLLECT {
          UNWIND coalesce(r.named, [k IN old | k + '|' + a.key + '|' + b.key]) + naming AS k
          WITH DISTINCT k RETURN k ORDER BY k
        }
  )
  SET r.snapshots = CASE
        WHEN row.snapshot IN old THEN old
        ELSE [k IN old WHERE k < row.snapshot] + row.snapshot + [k IN old WHERE k > row.snapshot] END,
      r.first_seen = CASE
        WHEN row.as_of IS NULL THEN r.first_seen
        WHEN r.first_seen IS NULL OR row.as_of < r.first_seen THEN row.as_of
        ELSE r.first_seen END,
      r.last_seen = CASE
        WHEN row.as_of IS NULL THEN r.last_seen
        WHEN r.last_seen IS NULL OR row.as_of > r.last_seen THEN row.as_of
        ELSE r.last_seen END
)
