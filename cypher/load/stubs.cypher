// name: stubs
// mode: write
// Make sure every paper a citation names exists. One not seen before becomes a stub: a
// paper known only from reference lists or edge lists. A stub's title, normalised title
// and year come from the best reference to it: the newest data date, then the snapshot
// key, then the spelling (ref_as_of), whatever the order of loading. A full record only
// gains from references what it lacks. A stated cited-by count is kept on the paper's
// DESCRIBED_IN link to the snapshot (the largest, when a list names it twice).
// param rows: list[map]  one map per paper reference: key, arxiv_id, title, norm_title, year, ref_as_of, snapshot, stated_cited_by, as_of
UNWIND $rows AS row
MERGE (p:Paper {key: row.key})
ON CREATE SET p.stub = true, p.arxiv_id = row.arxiv_id
WITH p, row
CALL (p, row) {
  WITH p, row
  WHERE p.arxiv_id IS NULL AND row.arxiv_id IS NOT NULL
  SET p.arxiv_id = row.arxiv_id
}
CALL (p, row) {
  WITH p, row
  WHERE row.ref_as_of IS NOT NULL AND (p.ref_as_of IS NULL OR row.ref_as_of > p.ref_as_of)
  SET p.ref_as_of = row.ref_as_of,
      p.title = CASE WHEN p.stub OR p.title IS NULL THEN row.title ELSE p.title END,
      p.norm_title = CASE WHEN p.stub OR p.norm_title IS NULL THEN row.norm_title ELSE p.norm_title END,
      p.year = CASE WHEN p.stub OR p.year IS NULL THEN row.year ELSE p.year END
}
WITH p, row WHERE row.stated_cited_by IS NOT NULL
MATCH (s:Snapshot {key: row.snapshot})
MERGE (p)-[d:DESCRIBED_IN]->(s)
WITH d, row
WHERE d.stated_cited_by IS NULL OR row.stated_cited_by > d.stated_cited_by
   OR d.as_of IS NULL AND row.as_of IS NOT NULL
SET d.stated_cited_by = CASE
      WHEN d.stated_cited_by IS NULL OR row.stated_cited_by > d.stated_cited_by
      THEN row.stated_cited_by ELSE d.stated_cited_by END,
    d.as_of = row.as_of
