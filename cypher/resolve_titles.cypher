// name: resolve_titles
// Candidate papers for references known only by title and year: same normalised title
// and a year at most 1 apart (or unknown). The caller picks the best per reference:
// one with an arXiv id first, then a full record over a stub, then the closest year.
// param refs: list[map]  one map per reference: i (its index), norm_title, year
UNWIND $refs AS ref
MATCH (p:Paper {norm_title: ref.norm_title})
WHERE ref.year IS NULL OR p.year IS NULL OR abs(p.year - ref.year) <= 1
RETURN ref.i AS i, p.key AS key, p.arxiv_id IS NOT NULL AS has_id, p.stub AS stub, p.year AS year
