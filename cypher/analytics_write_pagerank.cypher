// name: analytics_write_pagerank
// mode: write
// Store one batch of PageRank results on Paper nodes as the pagerank property, and label
// the top 1% of papers PageRankTop1 and the next 9% PageRankTop10, so cypher/map.grass
// can size them in Neo4j Browser (its styles select by label only).
// param rows: list[map]  one map per paper: key, value, tier (1 for the top 1%, 2 for the next 9%, 0 otherwise)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.pagerank = row.value
FOREACH (_ IN CASE WHEN row.tier = 1 THEN [1] ELSE [] END | SET p:PageRankTop1)
FOREACH (_ IN CASE WHEN row.tier = 2 THEN [1] ELSE [] END | SET p:PageRankTop10)
