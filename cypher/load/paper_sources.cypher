// name: paper_sources
// mode: read
// Every snapshot that states something about a paper: those that describe it and those
// that list a citation to or from it. Reloading these rebuilds the paper (kg unmerge).
// param key: str  node key of the paper
MATCH (p:Paper {key: $key})
CALL (p) {
  MATCH (p)-[:DESCRIBED_IN]->(s:Snapshot) RETURN s.key AS k
  UNION
  MATCH (p)-[r:CITES]-() UNWIND r.snapshots AS k RETURN k
}
WITH DISTINCT k
OPTIONAL MATCH (s:Snapshot {key: k})
RETURN k AS key, s.kind AS kind, s.source AS source, s.data_date AS data_date
ORDER BY source, key
