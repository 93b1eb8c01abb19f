// name: merge_papers
// mode: write
// Entity resolution: fold a paper known by title only (a stub, or a record without an
// arXiv id) into the paper with the arXiv id. Its relationships move with it, what it
// knew fills what the target lacks, and it is deleted.
// param pairs: list[map]  one map per merge: source (key of the title-only paper), target (key of the paper it becomes)
UNWIND $pairs AS pair
MATCH (s:Paper {key: pair.source})
MATCH (t:Paper {key: pair.target})
WHERE s <> t
CALL (s, t) {
  MATCH (s)-[r:CITES]->(o) WHERE o <> t
  MERGE (t)-[n:CITES]->(o)
  SET n.snapshots = reduce(acc = coalesce(n.snapshots, []), k IN r.snapshots | CASE WHEN k IN acc THEN acc ELSE acc + k END),
      n.first_seen = CASE WHEN n.first_seen IS NULL OR r.first_seen < n.first_seen THEN r.first_seen ELSE n.first_seen END,
      n.last_seen = CASE WHEN n.last_seen IS NULL OR r.last_seen > n.last_seen THEN r.last_seen ELSE n.last_seen END
  DELETE r
}
CALL (s, t) {
  MATCH (o)-[r:CITES]->(s) WHERE o <> t
  MERGE (o)-[n:CITES]->(t)
  SET n.snapshots = reduce(acc = coalesce(n.snapshots, []), k IN r.snapshots | CASE WHEN k IN acc THEN acc ELSE acc + k END),
      n.first_seen = CASE WHEN n.first_seen IS NULL OR r.first_seen < n.first_seen THEN r.first_seen ELSE n.first_seen END,
      n.last_seen = CASE WHEN n.last_seen IS NULL OR r.last_seen > n.last_seen THEN r.last_seen ELSE n.last_seen END
  DELETE r
}
CALL (s, t) {
  MATCH (s)-[r:DESCRIBED_IN]->(x)
  MERGE (t)-[n:DESCRIBED_IN]->(x)
  SET n = properties(r)
  DELETE r
}
CALL (s, t) {
  MATCH (a:Author)-[r:AUTHORED]->(s)
  WHERE t.authors_as_of IS NULL
  MERGE (a)-[n:AUTHORED]->(t)
  SET n.position = r.position
}
CALL (s, t) {
  MATCH (s)-[:PRIMARY_CATEGORY]->(c)
  WHERE t.categories_as_of IS NULL
  MERGE (t)-[:PRIMARY_CATEGORY]->(c)
}
CALL (s, t) {
  MATCH (s)-[:CROSS_LISTED]->(c)
  WHERE t.categories_as_of IS NULL
  MERGE (t)-[:CROSS_LISTED]->(c)
}
SET t.stub = t.stub AND s.stub,
    t.title = coalesce(t.title, s.title),
    t.norm_title = coalesce(t.norm_title, s.norm_title),
    t.year = coalesce(t.year, s.year),
    t.published = coalesce(t.published, s.published),
    t.abstract = coalesce(t.abstract, s.abstract),
    t.abstract_excerpt = coalesce(t.abstract_excerpt, s.abstract_excerpt),
    t.license = coalesce(t.license, s.license),
    t.doi = coalesce(t.doi, s.doi),
    t.journal_ref = coalesce(t.journal_ref, s.journal_ref),
    t.comments = coalesce(t.comments, s.comments),
    t.stated_cited_by = coalesce(t.stated_cited_by, s.stated_cited_by),
    t.stated_cited_by_in_map = coalesce(t.stated_cited_by_in_map, s.stated_cited_by_in_map),
    t.stated_refs_total = coalesce(t.stated_refs_total, s.stated_refs_total),
    t.stated_refs_in_map = coalesce(t.stated_refs_in_map, s.stated_refs_in_map),
    t.as_of = coalesce(t.as_of, s.as_of),
    t.authors_as_of = coalesce(t.authors_as_of, s.authors_as_of),
    t.categories_as_of = coalesce(t.categories_as_of, s.categories_as_of),
    t.primary_category = coalesce(t.primary_category, s.primary_category)
DETACH DELETE s
RETURN count(*) AS merged
