// name: paper_snapshots
// mode: read
// The snapshots that describe a paper, oldest data first, with what each one stated on
// its DESCRIBED_IN link, so that changes over time show side by side.
// param key: str  node key of the paper
MATCH (:Paper {key: $key})-[d:DESCRIBED_IN]->(s:Snapshot)
RETURN s.key AS key, s.kind AS kind, s.source AS source, s.data_date AS data_date,
       s.builder_version AS builder_version, d.as_of AS as_of, d.line AS line,
       d.stated_cited_by AS stated_cited_by, d.stated_cited_by_in_map AS stated_cited_by_in_map,
       d.stated_refs_total AS stated_refs_total, d.stated_refs_in_map AS stated_refs_in_map,
       d.listed_refs AS listed_refs, d.listed_citing AS listed_citing
ORDER BY coalesce(d.as_of, s.data_date), s.data_date, s.key
