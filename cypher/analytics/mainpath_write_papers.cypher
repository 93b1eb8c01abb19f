// name: mainpath_write_papers
// mode: write
// Flag the papers on the global main path (main_path) and on the key-route main path
// (key_route); a paper on neither keeps no flag.
// param rows: list[map]  one map per paper on a main path: key, main_path, key_route (booleans)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
SET p.main_path = row.main_path, p.key_route = row.key_route
