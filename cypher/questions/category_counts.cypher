// name: category_counts
// mode: read
// Papers per category: how many have it as primary category, how many are cross-listed
// in it, and the sum, largest first.
MATCH (c:Category)
WITH c, COUNT { (:Paper)-[:PRIMARY_CATEGORY]->(c) } AS primary,
     COUNT { (:Paper)-[:CROSS_LISTED]->(c) } AS cross_listed
RETURN c.code AS code, c.name AS name, c.archive AS archive, primary, cross_listed,
       primary + cross_listed AS total
ORDER BY total DESC, code
