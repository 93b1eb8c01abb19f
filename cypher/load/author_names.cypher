// name: author_names
// mode: write
// Every author a record names exists, keyed by a strong id or else the normalised full name
// (kg.load.neo4j_sink.record_authors), with the
// smallest spelling of the name seen, whatever the order of loading. An author that
// already has this spelling or a smaller one is not written.
// This statement is the rule's one definition: the writer sends every spelling it read.
// The plan reads every row's stored name before it writes any (an Eager), so with several
// spellings of one author in $rows the filter alone would let the last one win; the SET
// compares again, and the smallest wins.
// An author keyed by a strong id (an ORCID, say: author_ids.cypher) keeps every spelling of
// its name in `names` and their normalised forms in `norm_names`, which `kg author NAME`
// searches; an author keyed by its normalised name has only that one, its key.
// param rows: list[map]  one map per spelling (several per author allowed): key, name, norm_name
UNWIND $rows AS author
MERGE (a:Author {key: author.key})
ON CREATE SET a.name = author.name
WITH a, author
CALL (a, author) {
  WITH a, author
  WHERE author.key <> author.norm_name AND NOT author.name IN coalesce(a.names, [])
  SET a.names = COLLECT {
        UNWIND coalesce(a.names, []) + author.name AS n WITH DISTINCT n RETURN n ORDER BY n
      },
      a.norm_names = COLLECT {
        UNWIND coalesce(a.norm_names, []) + author.norm_name AS n WITH DISTINCT n RETURN n ORDER BY n
      }
}
WITH a, author
WHERE author.name < a.name
// compared again as it is written: the filter above read the name before any row wrote it
SET a.name = CASE WHEN author.name < a.name THEN author.name ELSE a.name END
