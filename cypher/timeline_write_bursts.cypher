// name: timeline_write_bursts
// mode: write
// Store one batch of citation bursts on Paper nodes: the strength, first and last year of
// each paper's strongest burst (Kleinberg's two-state model over its citations per year).
// param rows: list[map]  one map per paper with a burst: key, strength, start, end
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.burst_strength = row.strength, p.burst_start = row.start, p.burst_end = row.end
