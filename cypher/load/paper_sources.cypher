// name: paper_sources
// mode: read
// Every snapshot that states something about a paper: those that describe it, those that
// list a citation to or from it, and the newer snapshots that follow any of these (loaded
// with --since, they restate its unchanged records without links of their own). Reloading
// these rebuilds the paper (kg unmerge).
// param key: str  node key of the paper
MATCH (p:Paper {key: $key})
CALL (p) {
  MATCH (p)-[:DESCRIBED_IN]->(s:Snapshot) RETURN s.key AS k
  UNION
  MATCH (p)-[r:CITES]-() UNWIND r.snapshots AS k RETURN k
}
WITH DISTINCT k
CALL (k) {
  RETURN k AS stated
  UNION
  MATCH (:Snapshot {key: k})<-[:FOLLOWS]-+(newer:Snapshot) RETURN newer.key AS stated
}
WITH DISTINCT stated AS k
OPTIONAL MATCH (s:Snapshot {key: k})
RETURN k AS key, s.kind AS kind, s.source AS source, s.data_date AS data_date
ORDER BY source, key
