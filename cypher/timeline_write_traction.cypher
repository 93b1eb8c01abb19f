// name: timeline_write_traction
// mode: write
// Store one batch of traction values on Paper nodes: recent citations against the mean of
// the papers of the same primary category and year, (observed + 1) / (expected + 1).
// param rows: list[map]  one map per paper: key, value
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.traction = row.value
