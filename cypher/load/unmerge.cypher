// name: unmerge
// mode: write
// Split a wrong merge: record that these keys are kept apart (the identity rule merges
// nothing into or out of them on any later load) and remove the merged paper, so that
// reloading its sources (paper_sources) writes each key as its own paper.
// param key: str  node key of the merged paper
// param record: str  the KeepApart key of the split (kg.load.merges.kept_apart_key)
// param keys: list[str]  the aliases to split off and keep apart, sorted
// param norm_titles: list[str]  their normalised titles
// param sources: list[str]  keys of the snapshots that name the paper: no longer marked as
//   loaded whole, so that loading them again is not skipped
MERGE (k:KeepApart {key: $record})
SET k.split_from = $key, k.keys = $keys, k.norm_titles = $norm_titles,
    k.recorded_at = datetime()
WITH k
CALL () {
  MATCH (s:Snapshot) WHERE s.key IN $sources
  REMOVE s.loaded_by
}
MATCH (p:Paper {key: $key})
// The copies merge_papers.cypher kept of its parts go with it (each part is loaded again)
CALL (p) {
  MATCH (f:Folded) WHERE f.key IN [p.key] + coalesce(p.aliases, [])
  DETACH DELETE f
}
DETACH DELETE p
RETURN count(*) AS removed
