// name: papers
// mode: write
// Upsert full paper records. Each property takes the value of the newest record that
// states it (ordered by the record's as_of key, never by load order): a newer record sets
// what it states, and an older one sets what the paper lacks or holds from a still older
// record (or from a reference). filled_as_of remembers, for each property the newest record
// did not state, which record gave it ('<name>=<as_of>', sorted; '<name>=' for a
// reference), so this holds whatever the order. An abstract excerpt never replaces a full
// abstract. `years` keeps every year any record stated, whichever one the paper holds. The
// stated counts of each record are kept on its DESCRIBED_IN link to the snapshot; when one
// snapshot holds several records of the paper, the link keeps the newest (by data date,
// then the last in the file). A paper or link that already holds
// these values is not written, so loading the same data again sets nothing.
// param rows: list[map]  one map per paper record (see kg/load/neo4j_sink.py: paper_row)
UNWIND $rows AS row
MERGE (p:Paper {key: row.key})
// Take the paper's write lock before reading it (setting a label it has writes nothing): a
// paper another loader created while this batch waited on its MERGE is not in the batch's
// lock_papers, and a loader writing it between this reading and the writing below would
// be overwritten with values worked out from what it held before.
SET p:Paper
WITH p, row
// A title key with a record of its own is listed in `recorded` (its values fold into any
// paper it merges into, so the identity rule never moves it out again: title_splits)
CALL (p, row) {
  WITH p, row WHERE row.key STARTS WITH 'title:' AND NOT row.key IN coalesce(p.recorded, [])
  SET p.recorded = COLLECT {
        UNWIND coalesce(p.recorded, []) + row.key AS k WITH DISTINCT k RETURN k ORDER BY k
      }
}
// Each row reads the paper as the rows before it left it (two records of one paper can
// share a batch), so the reading and the writing happen together, row by row.
CALL (p, row) {
  WITH p, row, coalesce(p.as_of, '') AS top,
       ['title', 'norm_title', 'year', 'published', 'abstract', 'abstract_excerpt', 'license',
        'version', 'doi', 'journal_ref', 'comments', 'stated_cited_by', 'stated_cited_by_in_map',
        'stated_refs_total', 'stated_refs_in_map', 'topics'] AS names
  // held[i]: the as_of of the record that gave the paper names[i] ('' for a reference)
  WITH p, row, top, names, range(0, size(names) - 1) AS at,
       [k IN names | coalesce(head([f IN coalesce(p.filled_as_of, []) WHERE f STARTS WITH k + '=' | substring(f, size(k) + 1)]), top)] AS held
  WITH p, row, names, at, held, CASE WHEN row.as_of >= top THEN row.as_of ELSE top END AS newest,
       [i IN at | row[names[i]] IS NOT NULL AND (p[names[i]] IS NULL OR row.as_of >= held[i])] AS take
  WITH p, row, names, at, newest,
       [i IN at | CASE WHEN take[i] THEN row[names[i]] ELSE p[names[i]] END] AS value,
       [i IN at | CASE WHEN take[i] THEN row.as_of ELSE held[i] END] AS source
  WITH p, row, newest, value, COLLECT {
         UNWIND [i IN at WHERE value[i] IS NOT NULL AND source[i] <> newest | names[i] + '=' + source[i]] AS f
         RETURN f ORDER BY f
       } AS filled
  WITH p, {
    stub: false,
    arxiv_id: coalesce(row.arxiv_id, p.arxiv_id),
    title: value[0],
    norm_title: value[1],
    year: value[2],
    published: value[3],
    abstract: value[4],
    abstract_excerpt: value[5],
    license: value[6],
    version: value[7],
    doi: value[8],
    journal_ref: value[9],
    comments: value[10],
    stated_cited_by: value[11],
    stated_cited_by_in_map: value[12],
    stated_refs_total: value[13],
    stated_refs_in_map: value[14],
    topics: value[15],
    as_of: newest,
    filled_as_of: CASE WHEN filled = [] THEN null ELSE filled END,
    // every year a record or a reference stated (sorted), which the identity rule matches
    years: CASE WHEN row.year IS NULL OR row.year IN coalesce(p.years, []) THEN p.years
           ELSE [y IN coalesce(p.years, []) WHERE y < row.year] + [row.year]
                + [y IN coalesce(p.years, []) WHERE y > row.year] END
  } AS next
  WHERE any(k IN keys(next) WHERE NOT coalesce(p[k] = next[k], p[k] IS NULL AND next[k] IS NULL))
  WITH p, next, p.norm_title AS before
  SET p += next
  // A title the paper gives up stays one of its titles (see below)
  WITH p, before WHERE before <> p.norm_title
  MERGE (p)-[:ALSO_TITLED {norm_title: before}]->(p)
}
// Every normalised title a record or a reference stated for the paper, other than the one
// it holds, stays on it as an ALSO_TITLED loop, which the identity rule matches too: which
// titles a paper is found by is the set its records state, whatever record came first.
CALL (p, row) {
  WITH p, row WHERE row.norm_title <> p.norm_title
  MERGE (p)-[:ALSO_TITLED {norm_title: row.norm_title}]->(p)
}
CALL (p) {
  MATCH (p)-[held:ALSO_TITLED]->(p) WHERE held.norm_title = p.norm_title
  DELETE held
}
WITH p, row
MATCH (s:Snapshot {key: row.snapshot})
MERGE (p)-[d:DESCRIBED_IN]->(s)
WITH p, d, row
CALL (p, d, row) {
  WITH p, d, row, coalesce(toString(row.as_of_date), '') AS row_date,
       coalesce(toString(d.as_of), '') AS link_date
  WHERE d.line IS NULL OR row_date > link_date OR (row_date = link_date AND row.line >= d.line)
  WITH p, d, row, row.extra AS extra
  WITH p, d, extra {
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
  // The count references stated on this link before its first record, kept per key (as
  // stubs.cypher keeps them), since the record's counts replace them
  CALL (p, d) {
    WITH p, d WHERE d.named IS NULL AND d.line IS NULL AND d.stated_cited_by IS NOT NULL
    SET d.named = [p.key + '|' + toString(d.stated_cited_by) + '|' + coalesce(toString(d.as_of), '')]
  }
  SET d += next
}
