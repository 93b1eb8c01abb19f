// name: merge_candidates
// Papers known by title only (no arXiv id) that are the same paper as one with an arXiv
// id: same normalised title and years at most 1 apart (or unknown).
// param keys: list[str]  keys of papers with an arXiv id to look around
UNWIND $keys AS key
MATCH (t:Paper {key: key})
WHERE t.norm_title IS NOT NULL
MATCH (s:Paper {norm_title: t.norm_title})
WHERE s.arxiv_id IS NULL AND s <> t
  AND (s.year IS NULL OR t.year IS NULL OR abs(s.year - t.year) <= 1)
RETURN s.key AS source, t.key AS target
