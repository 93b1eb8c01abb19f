// name: self_citations
// mode: write
// A citation between two keys of one paper (a reference to a title key that merged into
// the citing paper, or the other way round) is no CITES edge: the paper keeps it in
// `self_cites`, 'snapshot|citing key|cited key' as the source named them (as CITES
// `named`), sorted, so that a key taken out again (split_key) takes its citations along.
// param rows: list[map]  one map per citation: key (the paper), entry
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
// The paper's write lock before it is read (setting a label it has writes nothing)
SET p:Paper
// The test and the write are one FOREACH, row by row (two rows may name one paper), so the
// plan needs no Eager
FOREACH (_ IN CASE WHEN NOT row.entry IN coalesce(p.self_cites, []) THEN [1] ELSE [] END |
  SET p.self_cites = COLLECT {
        UNWIND coalesce(p.self_cites, []) + row.entry AS e
        WITH DISTINCT e RETURN e ORDER BY e
      }
)
