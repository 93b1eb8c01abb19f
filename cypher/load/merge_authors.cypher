// name: merge_authors
// mode: write
// Fold one author into another that shares a strong id with it (loaders.ids.author_merges
// picks the target): its papers (AUTHORED, keeping the position; the smaller where both
// wrote the paper), its ids and its spellings move to the target, which keeps the smallest
// spelling as its name; the source is deleted. The result does not depend on which merge
// ran first.
// param source: str  key of the author that merges away
// param target: str  key of the author it becomes
MATCH (s:Author {key: $source})
MATCH (t:Author {key: $target})
WHERE s <> t
// Both authors' write locks before either is read
SET s:Author, t:Author
WITH s, t
CALL (s, t) {
  MATCH (s)-[old:AUTHORED]->(p:Paper)
  MERGE (t)-[w:AUTHORED]->(p)
  ON CREATE SET w.position = old.position
  SET w.position = CASE WHEN old.position < w.position THEN old.position ELSE w.position END
  DELETE old
}
CALL (s, t) {
  MATCH (i:AuthorId)-[r:IDENTIFIES]->(s)
  MERGE (i)-[:IDENTIFIES]->(t)
  DELETE r
}
SET t.name = CASE WHEN s.name < t.name THEN s.name ELSE t.name END,
    t.names = COLLECT {
      UNWIND coalesce(t.names, []) + coalesce(s.names, []) AS n
      WITH DISTINCT n RETURN n ORDER BY n
    },
    t.norm_names = COLLECT {
      UNWIND coalesce(t.norm_names, []) + coalesce(s.norm_names, []) AS n
      WITH DISTINCT n RETURN n ORDER BY n
    }
DETACH DELETE s
RETURN count(*) AS merged
