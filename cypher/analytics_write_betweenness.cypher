// name: analytics_write_betweenness
// mode: write
// Store one batch of betweenness results on Paper nodes as the betweenness property.
// Exact or sampled directed betweenness centrality (see kg/analytics/igraph_engine.py).
// param rows: list[map]  one map per paper: key, value
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.betweenness = row.value
