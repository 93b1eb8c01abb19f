// name: listed_apart
// mode: read
// The keys these snapshots list as separate papers under one normalised title (a map
// page's references and citing papers, and its own paper; each list with a title key among
// them), one entry per title, joined by '|': evidence against a merge of any two of them,
// which kg merges shows beside the merge (kg.load.merges).
// param keys: list[str]  snapshot keys
UNWIND $keys AS key
MATCH (s:Snapshot {key: key})-[:LISTS_APART]->(l:ListedApart)
RETURN s.key AS snapshot, s.source AS source, l.key AS keys
ORDER BY snapshot, keys
