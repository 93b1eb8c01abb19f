// name: categories
// mode: write
// Replace a paper's primary category and CROSS_LISTED categories when this record is at
// least as new as the one that set them. Every category any record names exists, with
// its name and archive from the shipped arXiv taxonomy, whatever the order. What already
// holds these values is not written again.
// param rows: list[map]  one map per paper: key, as_of, primary ({code, name, archive}), cross (a list of such maps), named (every category the batch's records of the paper name, older ones included)
UNWIND $rows AS row
CALL (row) {
  UNWIND row.named AS named
  MERGE (c:Category {code: named.code})
  WITH c, named
  WHERE NOT coalesce(c.name = coalesce(named.name, c.name), c.name IS NULL AND named.name IS NULL)
     OR NOT coalesce(c.archive = named.archive, c.archive IS NULL AND named.archive IS NULL)
  SET c.name = coalesce(named.name, c.name), c.archive = named.archive
}
MATCH (p:Paper {key: row.key})
WITH p, row WHERE p.categories_as_of IS NULL OR row.as_of > p.categories_as_of
   OR row.as_of = p.categories_as_of
      AND (p.primary_category IS NULL OR p.primary_category <> row.primary.code
           OR COLLECT { MATCH (p)-[:PRIMARY_CATEGORY]->(c:Category) RETURN c.code } <> [row.primary.code]
           OR COLLECT { MATCH (p)-[:CROSS_LISTED]->(c:Category) RETURN c.code ORDER BY c.code }
              <> COLLECT { UNWIND row.cross AS cross WITH DISTINCT cross.code AS code RETURN code ORDER BY code })
CALL (p) {
  MATCH (p)-[old:PRIMARY_CATEGORY|CROSS_LISTED]->(:Category)
  DELETE old
}
SET p.categories_as_of = row.as_of, p.primary_category = row.primary.code
WITH p, row
MATCH (c:Category {code: row.primary.code})
MERGE (p)-[:PRIMARY_CATEGORY]->(c)
WITH p, row
UNWIND row.cross AS cross
MATCH (x:Category {code: cross.code})
MERGE (p)-[:CROSS_LISTED]->(x)
