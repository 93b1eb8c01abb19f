// name: load_categories
// mode: write
// Replace a paper's primary category and CROSS_LISTED categories when this record is at
// least as new as the one that set them. Category nodes carry their name and archive
// from the shipped arXiv taxonomy.
// param rows: list[map]  one map per paper: key, as_of, primary ({code, name, archive}), cross (a list of such maps)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
WITH p, row WHERE p.categories_as_of IS NULL OR row.as_of >= p.categories_as_of
CALL (p) {
  MATCH (p)-[old:PRIMARY_CATEGORY|CROSS_LISTED]->(:Category)
  DELETE old
}
SET p.categories_as_of = row.as_of, p.primary_category = row.primary.code
MERGE (c:Category {code: row.primary.code})
SET c.name = coalesce(row.primary.name, c.name), c.archive = row.primary.archive
MERGE (p)-[:PRIMARY_CATEGORY]->(c)
WITH p, row
UNWIND row.cross AS cross
MERGE (x:Category {code: cross.code})
SET x.name = coalesce(cross.name, x.name), x.archive = cross.archive
MERGE (p)-[:CROSS_LISTED]->(x)
