// name: timeline_write_beauty
// mode: write
// Store one batch of beauty coefficients (Ke et al., PNAS 2015) on Paper nodes, with the
// year the paper awoke.
// param rows: list[map]  one map per paper: key, beauty, awakening (a year)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.beauty = row.beauty, p.awakening = row.awakening
