// name: papers
// mode: write
// Upsert full paper records. A property takes the value of the newest snapshot that
// states it (ordered by the record's as_of key, never by load order); an older record
// only fills what is still missing. An abstract excerpt never replaces a full abstract.
// The stated counts of each record are kept on its DESCRIBED_IN link to the snapshot; when
// one snapshot holds several records of the paper, the link keeps the newest (by data
// date, then the last in the file). A paper or link that already holds these values is
// not written, so loading the same data again sets nothing.
// param rows: list[map]  one map per paper record (see kg/load/neo4j_sink.py: paper_row)
UNWIND $rows AS row
MERGE (p:Paper {key: row.key})
WITH p, row
// Each row reads the paper as the rows before it left it (two records of one paper can
// share a batch), so the reading and the writing happen together, row by row.
CALL (p, row) {
  WITH p, row, (p.as_of IS NULL OR row.as_of >= p.as_of) AS newer
  WITH p, {
    stub: false,
    arxiv_id: coalesce(row.arxiv_id, p.arxiv_id),
    title: CASE WHEN newer OR p.title IS NULL THEN coalesce(row.title, p.title) ELSE p.title END,
    norm_title: CASE WHEN newer OR p.norm_title IS NULL THEN coalesce(row.norm_title, p.norm_title) ELSE p.norm_title END,
    year: CASE WHEN newer OR p.year IS NULL THEN coalesce(row.year, p.year) ELSE p.year END,
    published: CASE WHEN newer OR p.published IS NULL THEN coalesce(row.published, p.published) ELSE p.published END,
    abstract: CASE WHEN newer OR p.abstract IS NULL THEN coalesce(row.abstract, p.abstract) ELSE p.abstract END,
    abstract_excerpt: CASE WHEN newer OR p.abstract_excerpt IS NULL THEN coalesce(row.abstract_excerpt, p.abstract_excerpt) ELSE p.abstract_excerpt END,
    license: CASE WHEN newer OR p.license IS NULL THEN coalesce(row.license, p.license) ELSE p.license END,
    version: CASE WHEN newer OR p.version IS NULL THEN coalesce(row.version, p.version) ELSE p.version END,
    doi: CASE WHEN newer OR p.doi IS NULL THEN coalesce(row.doi, p.doi) ELSE p.doi END,
    journal_ref: CASE WHEN newer OR p.journal_ref IS NULL THEN coalesce(row.journal_ref, p.journal_ref) ELSE p.journal_ref END,
    comments: CASE WHEN newer OR p.comments IS NULL THEN coalesce(row.comments, p.comments) ELSE p.comments END,
    stated_cited_by: CASE WHEN newer OR p.stated_cited_by IS NULL THEN coalesce(row.stated_cited_by, p.stated_cited_by) ELSE p.stated_cited_by END,
    stated_cited_by_in_map: CASE WHEN newer OR p.stated_cited_by_in_map IS NULL THEN coalesce(row.stated_cited_by_in_map, p.stated_cited_by_in_map) ELSE p.stated_cited_by_in_map END,
    stated_refs_total: CASE WHEN newer OR p.stated_refs_total IS NULL THEN coalesce(row.stated_refs_total, p.stated_refs_total) ELSE p.stated_refs_total END,
    stated_refs_in_map: CASE WHEN newer OR p.stated_refs_in_map IS NULL THEN coalesce(row.stated_refs_in_map, p.stated_refs_in_map) ELSE p.stated_refs_in_map END,
    as_of: CASE WHEN newer THEN row.as_of ELSE p.as_of END
  } AS next
  WHERE any(k IN keys(next) WHERE NOT coalesce(p[k] = next[k], p[k] IS NULL AND next[k] IS NULL))
  SET p += next
}
WITH p, row
MATCH (s:Snapshot {key: row.snapshot})
MERGE (p)-[d:DESCRIBED_IN]->(s)
WITH d, row
CALL (d, row) {
  WITH d, row, coalesce(toString(row.as_of_date), '') AS row_date,
       coalesce(toString(d.as_of), '') AS link_date
  WHERE d.line IS NULL OR row_date > link_date OR (row_date = link_date AND row.line >= d.line)
  WITH d, row, row.extra AS extra
  WITH d, extra {
    .*,
    line: row.line,
    as_of: row.as_of_date,
    stated_cited_by: row.stated_cited_by,
    stated_cited_by_in_map: row.stated_cited_by_in_map,
    stated_refs_total: row.stated_refs_total,
    stated_refs_in_map: row.stated_refs_in_map,
    listed_refs: row.listed_refs,
    listed_citing: row.listed_citing,
    histogram_years: row.histogram_years,
    histogram_counts: row.histogram_counts
  } AS next
  WHERE any(k IN keys(next) WHERE NOT coalesce(d[k] = next[k], d[k] IS NULL AND next[k] IS NULL))
  SET d += next
}
