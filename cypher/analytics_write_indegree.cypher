// name: analytics_write_indegree
// mode: write
// Store one batch of indegree results on Paper nodes as the indegree property.
// How many papers in scope cite the paper.
// param rows: list[map]  one map per paper: key, value
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.indegree = row.value
