// name: older_loaders
// mode: read
// The loader versions other than this one that loaded snapshots of the graph whole (a
// graph built by another kg, whose rules may differ: kg 0.7.0 matches titles that differ
// only in a mathematical symbol apart, and sub- and superscripts however written, alike).
// param current: str  this loader's version (for example 'kg 0.7.0')
MATCH (s:Snapshot)
WHERE s.loaded_by IS NOT NULL AND s.loaded_by <> $current
RETURN DISTINCT s.loaded_by AS loaded_by
ORDER BY loaded_by
