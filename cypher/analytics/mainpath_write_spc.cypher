// name: mainpath_write_spc
// mode: write
// Store one batch of search path count weights on CITES relationships, as the share of all
// source-to-sink paths through the citation (0 to 1): one row per citing paper in scope,
// with a map from the key of each paper it cites to the weight (one index lookup per
// citing paper). A citation the map lacks (dropped to break a cycle, or leaving the
// scope) loses any spc it had.
// param rows: list[map]  one map per citing paper: citing (node key), spc (a map: cited key -> weight)
UNWIND $rows AS row
MATCH (:Paper {key: row.citing})-[c:CITES]->(cited:Paper)
SET c.spc = row.spc[cited.key]
