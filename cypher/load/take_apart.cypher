// name: take_apart
// mode: read
// What a paper holds that the loader takes apart before it is written again, or before the
// identity rule takes one of its title keys out (kg.load.neo4j_sink.GraphWriter.take_apart):
// the title keys with a full record of their own (`recorded`) merged into it, and whether
// the (:Folded) copies of it and of them, which merge_papers.cypher keeps, are all there.
// A paper that holds no such key has nothing to take apart.
// param keys: list[str]  node keys
UNWIND $keys AS key
MATCH (p:Paper {key: key})
WITH p, [k IN coalesce(p.recorded, []) WHERE k <> p.key AND k IN coalesce(p.aliases, [])] AS parts
WHERE parts <> []
RETURN p.key AS key, parts,
       [k IN [p.key] + parts WHERE NOT EXISTS { MATCH (:Folded {key: k}) }] AS missing,
       COLLECT {
         UNWIND parts AS k
         MATCH (f:Folded {key: k})
         RETURN f.norm_title AS norm ORDER BY norm
       } AS norm_titles
ORDER BY key
