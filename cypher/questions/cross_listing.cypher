// name: cross_listing
// mode: read
// The cross-listing matrix: for each pair of categories, how many papers with primary
// category `primary` are cross-listed in `cross`, most frequent first.
MATCH (x:Category)<-[:PRIMARY_CATEGORY]-(p:Paper)-[:CROSS_LISTED]->(y:Category)
RETURN x.code AS primary, y.code AS cross, count(DISTINCT p) AS papers
ORDER BY papers DESC, primary, cross
