// name: paper_source_report
// mode: read
// What each source says of a paper, beside what the graph holds: every snapshot that
// describes the paper (DESCRIBED_IN) or asserts a citation of or by it (a CITES edge of the
// paper whose snapshots list it), oldest data first, with the counts it states (null when
// it states none, or describes no record of the paper), how many of the paper's outgoing
// and incoming CITES it asserts, and how many of the references it names are stubs (known
// only from reference lists). builds_on and cited_by_in_map are the graph's own counts,
// from every source. reference_kinds are the kinds of source that name any of the paper's
// references; differences holds, for each such kind and each other such kind, the
// references the one names and the other does not, and how many of them are stubs. Each
// list of papers shows its first $examples, most cited in the graph first, then by key.
// param key: str  node key of the paper
// param examples: int = 5  how many papers each list of stubs and of differences shows
MATCH (p:Paper {key: $key})
// its references, each with the snapshots and the kinds of source that name it
WITH p, COLLECT {
  MATCH (p)-[c:CITES]->(r:Paper)
  WITH r, c, COUNT { (r)<-[:CITES]-() } AS cited
  RETURN {
    paper: r {.key, .arxiv_id, .title, .year, stub: coalesce(r.stub, false)},
    snapshots: c.snapshots,
    kinds: COLLECT {
      MATCH (s:Snapshot) WHERE s.key IN c.snapshots
      RETURN DISTINCT s.kind AS kind ORDER BY kind
    }
  } ORDER BY cited DESC, r.key
} AS refs
WITH p, refs, COLLECT {
  UNWIND refs AS ref
  UNWIND ref.kinds AS kind
  RETURN DISTINCT kind ORDER BY kind
} AS reference_kinds
RETURN COUNT { (p)-[:CITES]->() } AS builds_on,
       COUNT { (p)<-[:CITES]-() } AS cited_by_in_map,
       COLLECT {
         CALL (p) {
           MATCH (p)-[:DESCRIBED_IN]->(s:Snapshot)
           RETURN s
           UNION
           MATCH (p)-[c:CITES]-(:Paper)
           UNWIND c.snapshots AS listed
           WITH DISTINCT listed
           MATCH (s:Snapshot {key: listed})
           RETURN s
         }
         OPTIONAL MATCH (p)-[d:DESCRIBED_IN]->(s)
         WITH s, d, [ref IN refs WHERE s.key IN ref.snapshots | ref.paper] AS named
         WITH s, d, named, [r IN named WHERE r.stub] AS stubs
         RETURN {
           key: s.key, kind: s.kind, source: s.source, data_date: s.data_date,
           builder_version: s.builder_version, as_of: d.as_of, line: d.line,
           stated_cited_by: d.stated_cited_by, stated_cited_by_in_map: d.stated_cited_by_in_map,
           stated_refs_total: d.stated_refs_total, stated_refs_in_map: d.stated_refs_in_map,
           listed_refs: d.listed_refs, listed_citing: d.listed_citing,
           describes: d IS NOT NULL,
           asserted_refs: size(named),
           asserted_citers: COUNT { MATCH (:Paper)-[c:CITES]->(p) WHERE s.key IN c.snapshots },
           stub_refs: size(stubs),
           stub_examples: stubs[..$examples]
         } ORDER BY coalesce(d.as_of, s.data_date), s.data_date, s.key
       } AS results,
       reference_kinds,
       COLLECT {
         UNWIND reference_kinds AS kind
         UNWIND reference_kinds AS lacking
         WITH kind, lacking,
              [ref IN refs WHERE kind IN ref.kinds AND NOT lacking IN ref.kinds | ref.paper] AS only
         WHERE size(only) > 0
         RETURN {kind: kind, lacking: lacking, count: size(only),
                 stubs: size([r IN only WHERE r.stub]), examples: only[..$examples]}
         ORDER BY kind, lacking
       } AS differences
