// name: load_stubs
// mode: write
// Make sure every paper a citation names exists. One not seen before becomes a stub: a
// paper known only from a reference list or an edge list, with what that list states.
// An existing paper only gains what it lacks. A stated cited-by count is kept on the
// stub's DESCRIBED_IN link to the snapshot.
// param rows: list[map]  one map per paper reference: key, arxiv_id, title, norm_title, year, snapshot, stated_cited_by, as_of
UNWIND $rows AS row
MERGE (p:Paper {key: row.key})
ON CREATE SET p.stub = true,
              p.arxiv_id = row.arxiv_id,
              p.title = row.title,
              p.norm_title = row.norm_title,
              p.year = row.year
WITH p, row
CALL (p, row) {
  WITH p, row
  WHERE (p.arxiv_id IS NULL AND row.arxiv_id IS NOT NULL)
     OR (p.title IS NULL AND row.title IS NOT NULL)
     OR (p.year IS NULL AND row.year IS NOT NULL)
  SET p.arxiv_id = coalesce(p.arxiv_id, row.arxiv_id),
      p.title = coalesce(p.title, row.title),
      p.norm_title = coalesce(p.norm_title, row.norm_title),
      p.year = coalesce(p.year, row.year)
}
WITH p, row WHERE row.stated_cited_by IS NOT NULL
MATCH (s:Snapshot {key: row.snapshot})
MERGE (p)-[d:DESCRIBED_IN]->(s)
SET d.stated_cited_by = row.stated_cited_by, d.as_of = row.as_of
