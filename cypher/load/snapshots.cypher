// name: snapshots
// mode: write
// Upsert Snapshot nodes: one captured state of a source (a map page, a JSON record, an
// arXiv dump, an edge list). Dates only ever widen, so loading again changes nothing; two
// files with the same bytes are one snapshot, whose source is the smallest file name.
// The keys a map page lists as separate papers under one title, each list with a title key
// among them, are (:ListedApart) nodes the snapshot LISTS_APART, found by their normalised
// title by the identity rule (title_evidence.cypher) and by snapshot by kg merges
// (listed_apart.cypher). They follow from the bytes alone and are written before the
// snapshot's values are compared, so a snapshot loaded before they existed gets them too;
// a `listed_apart` property written by kg 0.5.0, which held the same lists, goes. Each
// property is named (no `SET s += map`, which the planner cannot tell from a write of the
// MERGE key), and the values are compared and written in one FOREACH, so the plan holds no
// Eager. A hash the row does not state keeps what the snapshot holds.
// param rows: list[map]  one map per snapshot: key, kind, source, sha256, data_date, first_date, builder_version, hashes (hash_<part> for each part of kg.load.rows.SNAPSHOT_HASHES, null where not stated), apart (key: a list's keys joined by '|', norm_title)
UNWIND $rows AS row
MERGE (s:Snapshot {key: row.key})
WITH s, row
CALL (s, row) {
  UNWIND coalesce(row.apart, []) AS apart
  MERGE (l:ListedApart {key: apart.key})
  ON CREATE SET l.norm_title = apart.norm_title, l.keys = split(apart.key, '|')
  MERGE (s)-[:LISTS_APART]->(l)
}
// `next` and `held` list the properties in the order of the SET below (the planner reads a
// map's `next.kind` as a property read, which a SET of `kind` elsewhere would conflict with)
FOREACH (next IN [[
  row.kind,
  CASE WHEN s.source IS NULL OR row.source < s.source THEN row.source ELSE s.source END,
  row.sha256,
  coalesce(row.builder_version, s.builder_version),
  CASE
    WHEN row.data_date IS NULL THEN s.data_date
    WHEN s.data_date IS NULL OR row.data_date > s.data_date THEN row.data_date
    ELSE s.data_date END,
  CASE
    WHEN row.first_date IS NULL THEN s.first_date
    WHEN s.first_date IS NULL OR row.first_date < s.first_date THEN row.first_date
    ELSE s.first_date END,
  coalesce(row.hashes.hash_claims, s.hash_claims),
  coalesce(row.hashes.hash_integrity, s.hash_integrity),
  coalesce(row.hashes.hash_references, s.hash_references),
  coalesce(row.hashes.hash_formal_canon, s.hash_formal_canon),
  coalesce(row.hashes.hash_author_claims, s.hash_author_claims)
]] |
  FOREACH (held IN [[s.kind, s.source, s.sha256, s.builder_version, s.data_date, s.first_date,
                     s.hash_claims, s.hash_integrity, s.hash_references, s.hash_formal_canon,
                     s.hash_author_claims]] |
    FOREACH (_ IN CASE WHEN s.listed_apart IS NOT NULL OR any(i IN range(0, size(next) - 1)
                    WHERE NOT coalesce(held[i] = next[i], held[i] IS NULL AND next[i] IS NULL))
                  THEN [1] ELSE [] END |
      SET s.kind = next[0], s.source = next[1], s.sha256 = next[2], s.builder_version = next[3],
          s.data_date = next[4], s.first_date = next[5], s.listed_apart = null,
          s.hash_claims = next[6], s.hash_integrity = next[7], s.hash_references = next[8],
          s.hash_formal_canon = next[9], s.hash_author_claims = next[10]
    )
  )
)
