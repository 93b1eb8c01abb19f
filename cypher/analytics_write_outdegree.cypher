// name: analytics_write_outdegree
// mode: write
// Store one batch of outdegree results on Paper nodes as the outdegree property.
// How many papers in scope the paper cites.
// param rows: list[map]  one map per paper: key, value
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.outdegree = row.value
