// name: snapshots
// mode: write
// Upsert Snapshot nodes: one captured state of a source (a map page, a JSON record, an
// arXiv dump, an edge list). Dates only ever widen, so loading again changes nothing; two
// files with the same bytes are one snapshot, whose source is the smallest file name.
// `listed_apart` (the keys a map page lists as separate papers under one title) follows
// from the bytes alone, so the row's value replaces any held. A snapshot that already
// holds these values is not written. Each such list of keys with a title key among them is
// also a (:ListedApart) node, found by its normalised title, which the identity rule reads
// (listed_apart_titles.cypher); written first, so that a snapshot loaded before it existed
// gets it too.
// param rows: list[map]  one map per snapshot: key, kind, source, sha256, data_date, first_date, builder_version, hashes, listed_apart, apart (key: a listed_apart entry, norm_title)
UNWIND $rows AS row
CALL (row) {
  UNWIND coalesce(row.apart, []) AS apart
  MERGE (l:ListedApart {key: apart.key})
  ON CREATE SET l.norm_title = apart.norm_title, l.keys = split(apart.key, '|')
}
MERGE (s:Snapshot {key: row.key})
WITH s, row, row.hashes AS hashes
WITH s, hashes {
  .*,
  kind: row.kind,
  source: CASE WHEN s.source IS NULL OR row.source < s.source THEN row.source ELSE s.source END,
  sha256: row.sha256,
  builder_version: coalesce(row.builder_version, s.builder_version),
  listed_apart: row.listed_apart,
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
