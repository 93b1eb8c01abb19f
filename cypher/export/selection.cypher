// name: selection
// mode: read
// The keys of the papers an export takes, by category (primary or cross-listed), year
// range, community, and the top $top by a property written back by `kg rank` (highest
// first). A null parameter leaves its filter off.
// param category: str  an arXiv category code such as 'hep-th', or null
// param year_from: int  the first year, or null
// param year_to: int  the last year, or null
// param community: int  a community id written by `kg communities --write`, or null
// param rank_by: str  a property written by `kg rank` (e.g. 'pagerank'), or null
// param top: int  how many papers by rank_by, or null for all
MATCH (p:Paper)
WHERE ($category IS NULL
       OR EXISTS { (p)-[:PRIMARY_CATEGORY|CROSS_LISTED]->(:Category {code: $category}) })
  AND ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
  AND ($community IS NULL OR p.community = $community)
  AND ($rank_by IS NULL OR p[$rank_by] IS NOT NULL)
WITH p, CASE WHEN $rank_by IS NULL THEN 0.0 ELSE toFloat(p[$rank_by]) END AS score
ORDER BY score DESC, p.key
LIMIT coalesce($top, 1000000000)
RETURN p.key AS key
