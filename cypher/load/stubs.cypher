// name: stubs
// mode: write
// Make sure every paper a citation names exists. One not seen before becomes a stub: a
// paper known only from reference lists or edge lists. A stub's title, normalised title
// and year come from the best reference to it: the newest data date, then the snapshot
// key, then the spelling (ref_as_of), whatever the order of loading. A paper with full
// records takes from its best reference only what no record states (see papers.cypher). A stated cited-by count is kept on the paper's
// DESCRIBED_IN link to the snapshot (the largest, when a list names it twice), with the
// newest data date of the references that state one. A paper that absorbed other keys keeps
// the best reference of each of its keys, its own included, in `key_refs` ('key|ref_as_of',
// sorted), so that which key a reference spelled the paper under is known after a merge;
// a reference to a key that merged away (`named`) states no year of the paper's: its year
// is in the key.
// param rows: list[map]  one map per paper reference: key, arxiv_id, title, norm_title, year, ref_as_of, snapshot, stated_cited_by, as_of, named (the key the reference named, when it merged into the paper; else null)
UNWIND $rows AS row
MERGE (p:Paper {key: row.key})
ON CREATE SET p.stub = true, p.arxiv_id = row.arxiv_id
// The paper's write lock before it is read (as in papers.cypher): another loader may be
// writing the same stub's best reference
SET p:Paper
WITH p, row
CALL (p, row) {
  WITH p, row
  WHERE p.arxiv_id IS NULL AND row.arxiv_id IS NOT NULL
  SET p.arxiv_id = row.arxiv_id
}
CALL (p, row) {
  WITH p, row
  WHERE row.ref_as_of IS NOT NULL AND (p.ref_as_of IS NULL OR row.ref_as_of > p.ref_as_of)
  // A stub takes the best reference's title and year as a whole; a paper with records takes
  // only what no record stated: what it lacks, or holds from a reference ('<name>=' in
  // filled_as_of, which then marks what it took)
  WITH p, row, coalesce(p.filled_as_of, []) AS filled,
       [k IN ['title', 'norm_title', 'year'] WHERE p.stub OR p[k] IS NULL OR k + '=' IN coalesce(p.filled_as_of, [])] AS taken
  WITH p, row, taken, CASE WHEN p.stub THEN filled ELSE COLLECT {
         UNWIND [f IN filled WHERE NOT any(k IN taken WHERE f STARTS WITH k + '=')]
                + [k IN taken WHERE row[k] IS NOT NULL | k + '='] AS f
         RETURN f ORDER BY f
       } END AS filled, p.norm_title AS before
  SET p.ref_as_of = row.ref_as_of,
      p.title = CASE WHEN 'title' IN taken THEN row.title ELSE p.title END,
      p.norm_title = CASE WHEN 'norm_title' IN taken THEN row.norm_title ELSE p.norm_title END,
      p.year = CASE WHEN 'year' IN taken THEN row.year ELSE p.year END,
      p.filled_as_of = CASE WHEN filled = [] THEN null ELSE filled END
  // A title the paper gives up stays one of its titles (see below)
  WITH p, before WHERE before <> p.norm_title
  MERGE (p)-[:ALSO_TITLED {norm_title: before}]->(p)
}
// The best reference of each key of a paper that absorbed others (see above)
CALL (p, row) {
  WITH p, row, coalesce(row.named, p.key) AS named
  WHERE row.ref_as_of IS NOT NULL AND (row.named IS NOT NULL OR p.aliases IS NOT NULL)
    AND NOT any(e IN coalesce(p.key_refs, [])
                WHERE e STARTS WITH named + '|' AND substring(e, size(named) + 1) >= row.ref_as_of)
  // Compared again as it is written (see the DESCRIBED_IN link below)
  SET p.key_refs = COLLECT {
        UNWIND CASE
          WHEN any(e IN coalesce(p.key_refs, [])
                   WHERE e STARTS WITH named + '|' AND substring(e, size(named) + 1) >= row.ref_as_of)
          THEN p.key_refs
          ELSE [e IN coalesce(p.key_refs, []) WHERE NOT e STARTS WITH named + '|']
               + [named + '|' + row.ref_as_of] END AS e
        RETURN e ORDER BY e
      }
}
// Every year a reference or a record stated for the paper stays in its sorted `years` (as in
// papers.cypher), whichever reference is the best, but one to a key
// merged away (its year is in that key)
CALL (p, row) {
  WITH p, row WHERE row.named IS NULL AND row.year IS NOT NULL AND NOT row.year IN coalesce(p.years, [])
  SET p.years = [y IN coalesce(p.years, []) WHERE y < row.year] + [row.year]
                + [y IN coalesce(p.years, []) WHERE y > row.year]
}
// Every normalised title a reference or a record stated for the paper, other than the one
// it holds, stays on it as an ALSO_TITLED loop (as in papers.cypher)
CALL (p, row) {
  WITH p, row WHERE row.norm_title <> p.norm_title
  MERGE (p)-[:ALSO_TITLED {norm_title: row.norm_title}]->(p)
}
CALL (p) {
  MATCH (p)-[held:ALSO_TITLED]->(p) WHERE held.norm_title = p.norm_title
  DELETE held
}
WITH p, row WHERE row.stated_cited_by IS NOT NULL
MATCH (s:Snapshot {key: row.snapshot})
// A link that holds a record of the paper (papers.cypher: `line`) states the record's
// counts, and a reference on the same page changes none of them. Which key each count came
// under is kept as the link's `named` once some reference named a key merged into the
// paper, or stated a count on a link that holds a record: 'key|count|data date' per key,
// the largest count and the newest date (the paper's own key's from what the link held
// before, unless that was a record), sorted. One
// subquery per row, which sees what the rows before it wrote: the plan may otherwise read
// every row before it writes any (an Eager), and two rows for one link must give the
// largest count, the newest date and the same list in either order
CALL (p, s, row) {
  MERGE (p)-[d:DESCRIBED_IN]->(s)
  WITH p, d, row, coalesce(row.named, p.key) AS named
  CALL (p, d, row, named) {
    WITH p, d, row, named
    WHERE (row.named IS NOT NULL OR d.named IS NOT NULL OR d.line IS NOT NULL)
      AND NOT any(e IN coalesce(d.named, []) WHERE e STARTS WITH named + '|'
                  AND toInteger(split(e, '|')[1]) >= row.stated_cited_by
                  AND split(e, '|')[2] >= coalesce(toString(row.as_of), ''))
    SET d.named = COLLECT {
          WITH coalesce(d.named, CASE WHEN d.line IS NULL AND d.stated_cited_by IS NOT NULL
                 THEN [p.key + '|' + toString(d.stated_cited_by) + '|' + coalesce(toString(d.as_of), '')]
                 ELSE [] END) AS entries
          WITH entries, head([e IN entries WHERE e STARTS WITH named + '|' | split(e, '|')]) AS held
          UNWIND [e IN entries WHERE NOT e STARTS WITH named + '|'] + [named + '|'
            + toString(CASE WHEN held IS NULL OR row.stated_cited_by > toInteger(held[1])
                            THEN row.stated_cited_by ELSE toInteger(held[1]) END) + '|'
            + CASE WHEN held IS NULL OR coalesce(toString(row.as_of), '') > held[2]
                   THEN coalesce(toString(row.as_of), '') ELSE held[2] END] AS e
          RETURN e ORDER BY e
        }
  }
  WITH d, row
  WHERE d.line IS NULL AND (
        d.stated_cited_by IS NULL OR row.stated_cited_by > d.stated_cited_by
     OR row.as_of IS NOT NULL AND (d.as_of IS NULL OR row.as_of > d.as_of))
  SET d.stated_cited_by = CASE
        WHEN d.stated_cited_by IS NULL OR row.stated_cited_by > d.stated_cited_by
        THEN row.stated_cited_by ELSE d.stated_cited_by END,
      d.as_of = CASE
        WHEN row.as_of IS NOT NULL AND (d.as_of IS NULL OR row.as_of > d.as_of)
        THEN row.as_of ELSE d.as_of END
}
