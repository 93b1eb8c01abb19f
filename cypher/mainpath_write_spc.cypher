// name: mainpath_write_spc
// mode: write
// Store one batch of search path count weights on CITES relationships, as the share of all
// source-to-sink paths through the citation (0 to 1).
// param rows: list[map]  one map per citation: citing, cited (node keys), spc
UNWIND $rows AS row
MATCH (:Paper {key: row.citing})-[c:CITES]->(:Paper {key: row.cited})
SET c.spc = row.spc
