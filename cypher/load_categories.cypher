// name: load_categories
// mode: write
// Replace a paper's primary category and CROSS_LISTED categories when this record is at
// least as new as the one that set them. Every category any record names exists, with
// its name and archive from the shipped arXiv taxonomy, whatever the order.
// param rows: list[map]  one map per paper: key, as_of, primary ({code, name, archive}), cross (a list of such maps)
UNWIND $rows AS row
CALL (row) {
  UNWIND [row.primary] + row.cross AS named
  MERGE (c:Category {code: named.code})
  SET c.name = coalesce(named.name, c.name), c.archive = named.archive
}
MATCH (p:Paper {key: row.key})
WITH p, row WHERE p.categories_as_of IS NULL OR row.as_of >= p.categories_as_of
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
