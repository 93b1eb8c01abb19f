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
// a `listed_apart` property written by kg 0.5.0, which held the same lists, goes.
// param rows: list[map]  one map per snapshot: key, kind, source, sha256, data_date, first_date, builder_version, hashes, apart (key: a list's keys joined by '|', norm_title)
UNWIND $rows AS row
MERGE (s:Snapshot {key: row.key})
WITH s, row
CALL (s, row) {
  UNWIND coalesce(row.apart, []) AS apart
  MERGE (l:ListedApart {key: apart.key})
  ON CREATE SET l.norm_title = apart.norm_title, l.keys = split(apart.key, '|')
  MERGE (s)-[:LISTS_APART]->(l)
}
WITH s, row, row.hashes AS hashes
WITH s, hashes {
  .*,
  kind: row.kind,
  source: CASE WHEN s.source IS NULL OR row.source < s.source THEN row.source ELSE s.source END,
  sha256: row.sha256,
  builder_version: coalesce(row.builder_version, s.builder_version),
  listed_apart: null,
  data_date: CASE
    WHEN row.data_date IS NULL THEN s.data_date
    WHEN s.data_date IS NULL OR row.data_date > s.data_date THEN row.data_date
    ELSE s.data_date END,
  first_date: CASE
    WHEN row.first_date IS NULL THEN s.first_date
    WHEN s.first_date IS NULL OR row.first_date < s.first_date THEN row.first_date
    ELSE s.first_date END
} AS next
WHERE any(k IN keys(next) WHERE NOT coalesce(s[k] = next[k], s[k] IS NULL AND next[k] IS NULL))
SET s += next
