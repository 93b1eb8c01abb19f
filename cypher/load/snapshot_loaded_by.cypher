// name: snapshot_loaded_by
// mode: read
// Which loader version loaded every record of a snapshot (a file's exact content), or null
// when none did: the loader skips a file its own version loaded whole before.
// param key: str  the snapshot key ('sha256:<hex>')
MATCH (s:Snapshot {key: $key})
RETURN s.loaded_by AS loaded_by
