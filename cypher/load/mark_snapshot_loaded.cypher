// name: mark_snapshot_loaded
// mode: write
// Record that every record of a snapshot is in the graph, and which loader version wrote
// them; set once a file's last batch has committed, so a load cut off mid-way never marks.
// param key: str  the snapshot key ('sha256:<hex>')
// param loaded_by: str  the loader version, e.g. 'kg 0.2.0'
MATCH (s:Snapshot {key: $key})
WHERE s.loaded_by IS NULL OR s.loaded_by <> $loaded_by
SET s.loaded_by = $loaded_by
