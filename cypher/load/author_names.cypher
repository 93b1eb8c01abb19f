// name: author_names
// mode: write
// Every author a record names exists, keyed by a strong id or else the normalised full name
// (kg.load.neo4j_sink.record_authors), with the
// smallest spelling of the name seen, whatever the order of loading. An author that
// already has this spelling or a smaller one is not written.
// This statement is the rule's one definition: the writer sends every spelling it read.
// Each FOREACH reads the author as the rows before it left it and writes it in the same
// step, so with several spellings of one author in $rows the smallest wins, and the plan
// needs no Eager (which a WHERE reading what a later SET writes would bring).
// An author keyed by a strong id (an ORCID, say: author_ids.cypher) keeps every spelling of
// its name in `names` and their normalised forms in `norm_names`, which `kg author NAME`
// searches; an author keyed by its normalised name has only that one, its key.
// param rows: list[map]  one map per spelling (several per author allowed): key, name, norm_name
UNWIND $rows AS author
MERGE (a:Author {key: author.key})
// The row's name and normalised name go in as a list: the planner takes `author.name` for a
// read of a node's `name`, which the SET below writes, and would hold the batch (an Eager)
FOREACH (spelling IN [[author.name, author.norm_name]] |
  FOREACH (_ IN CASE WHEN a.name IS NULL OR spelling[0] < a.name THEN [1] ELSE [] END |
    SET a.name = spelling[0]
  )
  // Both lists stay sorted and distinct
  FOREACH (_ IN CASE WHEN author.key <> spelling[1] AND NOT spelling[0] IN coalesce(a.names, [])
                THEN [1] ELSE [] END |
    SET a.names = [n IN coalesce(a.names, []) WHERE n < spelling[0]] + spelling[0]
                  + [n IN coalesce(a.names, []) WHERE n > spelling[0]],
        a.norm_names = CASE WHEN spelling[1] IN coalesce(a.norm_names, []) THEN a.norm_names
          ELSE [n IN coalesce(a.norm_names, []) WHERE n < spelling[1]] + spelling[1]
               + [n IN coalesce(a.norm_names, []) WHERE n > spelling[1]] END
  )
)
