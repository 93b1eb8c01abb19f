// name: mark_snapshot_loaded
// mode: write
// Record that every record of a snapshot is in the graph, and which loader version wrote
// them; set once a file's last batch has committed, so a load cut off mid-way never marks.
// param key: str  the snapshot key ('sha256:<hex>')
// param loaded_by: str  the loader version, e.g. 'kg 0.2.0'
MATCH (s:Snapshot {key: $key})
// The test and the write are one FOREACH, so the plan holds no Eager
FOREACH (_ IN CASE WHEN s.loaded_by IS NULL OR s.loaded_by <> $loaded_by THEN [1] ELSE [] END |
  SET s.loaded_by = $loaded_by
)
