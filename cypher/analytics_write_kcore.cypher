// name: analytics_write_kcore
// mode: write
// Store one batch of kcore results on Paper nodes as the kcore property.
// The paper's coreness over in- plus out-degree.
// param rows: list[map]  one map per paper: key, value
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.kcore = row.value
