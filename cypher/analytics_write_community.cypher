// name: analytics_write_community
// mode: write
// Store one batch of community results on Paper nodes as the community property.
// The paper's community number (0 is the largest) on the undirected citation graph.
// param rows: list[map]  one map per paper: key, value
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.community = row.value
