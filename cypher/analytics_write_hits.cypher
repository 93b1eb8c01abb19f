// name: analytics_write_hits
// mode: write
// Store one batch of HITS results on Paper nodes as the hits_authority and hits_hub
// properties (each sums to 1 over the papers in scope).
// param rows: list[map]  one map per paper: key, authority, hub
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.hits_authority = row.authority, p.hits_hub = row.hub
