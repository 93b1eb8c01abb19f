// name: id_aliases
// mode: write
// A reference by a strong id that another paper holds is written to that paper
// (id_holders.cypher); the paper keeps the id's key in `aliases`, as it does when the
// reference came first, made a paper of its own and merged into it (merge_papers.cypher),
// so the graph does not depend on which came first.
// param rows: list[map]  one map per paper: key, aliases (id keys, sorted)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
// The test and the write are one FOREACH, row by row, so the plan needs no Eager
FOREACH (new IN CASE WHEN any(k IN row.aliases WHERE k <> p.key AND NOT k IN coalesce(p.aliases, []))
                THEN [[k IN row.aliases WHERE k <> p.key AND NOT k IN coalesce(p.aliases, [])]]
                ELSE [] END |
  // and, as merge_papers.cypher does, starts `key_refs` with its own best reference
  SET p.key_refs = coalesce(p.key_refs, CASE WHEN p.ref_as_of IS NULL THEN null ELSE [p.key + '|' + p.ref_as_of] END),
      p.aliases = COLLECT {
        UNWIND coalesce(p.aliases, []) + new AS k WITH DISTINCT k RETURN k ORDER BY k
      }
)
