// name: listed_apart
// mode: read
// The keys these snapshots list as separate papers under one normalised title (a map
// page's references, and its own paper), one entry per title, joined by '|': evidence
// against a merge of any two of them, which kg merges shows beside the merge
// (kg.load.merges).
// param keys: list[str]  snapshot keys
UNWIND $keys AS key
MATCH (s:Snapshot {key: key})
WHERE s.listed_apart IS NOT NULL
UNWIND s.listed_apart AS keys
RETURN s.key AS snapshot, s.source AS source, keys
ORDER BY snapshot, keys
