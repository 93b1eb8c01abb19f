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
// An edge whose first source named another key starts with no snapshot, so that the SETs
// below record the name (and do not take the snapshot for one naming the two papers)
ON CREATE SET r.snapshots = CASE WHEN aside THEN [] ELSE [row.snapshot] END,
              r.first_seen = row.as_of, r.last_seen = row.as_of,
              a.changed_at = datetime.transaction(), b.changed_at = datetime.transaction()
WITH a, b, r, row, naming, aside
WHERE NOT row.snapshot IN r.snapshots
   OR (aside OR r.named IS NOT NULL) AND NOT naming IN coalesce(r.named, [])
   OR (row.as_of IS NOT NULL AND (r.first_seen IS NULL OR row.as_of < r.first_seen
       OR r.last_seen IS NULL OR row.as_of > r.last_seen))
// `named` is written only where some source named another key: an edge no merge touched
// never has it written (not even as null). The SET reads the edge as it was before this
// row's SET of its snapshots below, and as earlier rows of this statement left it
CALL (a, b, r, naming, aside) {
  WITH a, b, r, naming WHERE (aside OR r.named IS NOT NULL) AND NOT naming IN coalesce(r.named, [])
  SET r.named = COLLECT {
        UNWIND coalesce(r.named, [k IN r.snapshots | k + '|' + a.key + '|' + b.key]) + naming AS k
        WITH DISTINCT k RETURN k ORDER BY k
      }
}
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
