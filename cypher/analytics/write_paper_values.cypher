// name: write_paper_values
// mode: write
// Store one batch of analysis results on Paper nodes: each row's props map (property name
// -> value, e.g. {pagerank: 0.0012}) is added to its paper, and a null value removes the
// property. The property names come from the analytics' own table, never from input. A
// PageRank row's tier labels the top 1% of papers PageRankTop1 and the next 9%
// PageRankTop10, so cypher/map.grass can size them in Neo4j Browser (its styles select by
// label only); other rows have no tier.
// param rows: list[map]  one map per paper: key, props (a map: property -> value), tier (PageRank only: 1, 2 or 0)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p += row.props
FOREACH (_ IN CASE WHEN row.tier = 1 THEN [1] ELSE [] END | SET p:PageRankTop1)
FOREACH (_ IN CASE WHEN row.tier = 2 THEN [1] ELSE [] END | SET p:PageRankTop10)
