// name: merge_papers
// mode: write
// Entity resolution: fold one paper into another that the identity rule says is the same
// paper (kg.loaders.identity.title_merges picks the target). Its relationships move to the target;
// each property, the author list and the categories come from whichever of the two has
// the newer record (as_of, then for papers known only from references ref_as_of), the
// other filling what is missing; CITES snapshot lists stay sorted sets; the target keeps
// every key it was known by in `aliases` (sorted); the source is deleted. The result does
// not depend on which merge ran first. The target, and any paper that gains an edge to it,
// get a new changed_at (stored similarity is stale for them).
// param source: str  key of the paper that merges away
// param target: str  key of the paper it becomes
MATCH (s:Paper {key: $source})
MATCH (t:Paper {key: $target})
WHERE s <> t
CALL (s, t) {
  MATCH (s)-[r:CITES]->(o) WHERE o <> t
  MERGE (t)-[n:CITES]->(o)
  ON CREATE SET o.changed_at = datetime.transaction()
  SET n.snapshots = COLLECT {
        UNWIND coalesce(n.snapshots, []) + r.snapshots AS k
        WITH DISTINCT k RETURN k ORDER BY k
      },
      n.first_seen = CASE WHEN n.first_seen IS NULL OR r.first_seen < n.first_seen THEN r.first_seen ELSE n.first_seen END,
      n.last_seen = CASE WHEN n.last_seen IS NULL OR r.last_seen > n.last_seen THEN r.last_seen ELSE n.last_seen END
  DELETE r
}
CALL (s, t) {
  MATCH (o)-[r:CITES]->(s) WHERE o <> t
  MERGE (o)-[n:CITES]->(t)
  ON CREATE SET o.changed_at = datetime.transaction()
  SET n.snapshots = COLLECT {
        UNWIND coalesce(n.snapshots, []) + r.snapshots AS k
        WITH DISTINCT k RETURN k ORDER BY k
      },
      n.first_seen = CASE WHEN n.first_seen IS NULL OR r.first_seen < n.first_seen THEN r.first_seen ELSE n.first_seen END,
      n.last_seen = CASE WHEN n.last_seen IS NULL OR r.last_seen > n.last_seen THEN r.last_seen ELSE n.last_seen END
  DELETE r
}
CALL (s, t) {
  MATCH (s)-[r:DESCRIBED_IN]->(x)
  MERGE (t)-[n:DESCRIBED_IN]->(x)
  WITH r, n, properties(n) AS kept
  SET n += properties(r)
  SET n += kept
  SET n.stated_cited_by = CASE
        WHEN r.stated_cited_by IS NULL OR kept.stated_cited_by > r.stated_cited_by
        THEN kept.stated_cited_by ELSE r.stated_cited_by END
  DELETE r
}
WITH s, t,
     s.authors_as_of IS NOT NULL AND (t.authors_as_of IS NULL OR s.authors_as_of > t.authors_as_of) AS newer_authors,
     s.categories_as_of IS NOT NULL AND (t.categories_as_of IS NULL OR s.categories_as_of > t.categories_as_of) AS newer_categories,
     CASE
       WHEN s.as_of IS NOT NULL OR t.as_of IS NOT NULL
       THEN s.as_of IS NOT NULL AND (t.as_of IS NULL OR s.as_of > t.as_of)
       ELSE s.ref_as_of IS NOT NULL AND (t.ref_as_of IS NULL OR s.ref_as_of > t.ref_as_of)
     END AS s_wins
CALL (s, t, newer_authors) {
  WITH s, t, newer_authors WHERE newer_authors
  CALL (t) {
    MATCH (:Author)-[old:AUTHORED]->(t)
    DELETE old
  }
  MATCH (a:Author)-[r:AUTHORED]->(s)
  MERGE (a)-[n:AUTHORED]->(t)
  SET n.position = r.position
}
CALL (s, t, newer_categories) {
  WITH s, t, newer_categories WHERE newer_categories
  CALL (t) {
    MATCH (t)-[old:PRIMARY_CATEGORY|CROSS_LISTED]->(:Category)
    DELETE old
  }
  CALL (s, t) {
    MATCH (s)-[:PRIMARY_CATEGORY]->(c)
    MERGE (t)-[:PRIMARY_CATEGORY]->(c)
  }
  CALL (s, t) {
    MATCH (s)-[:CROSS_LISTED]->(c)
    MERGE (t)-[:CROSS_LISTED]->(c)
  }
}
SET t.stub = t.stub AND s.stub,
    t.changed_at = datetime.transaction(),
    t.arxiv_id = coalesce(t.arxiv_id, s.arxiv_id),
    t.title = CASE WHEN s_wins THEN coalesce(s.title, t.title) ELSE coalesce(t.title, s.title) END,
    t.norm_title = CASE WHEN s_wins THEN coalesce(s.norm_title, t.norm_title) ELSE coalesce(t.norm_title, s.norm_title) END,
    t.year = CASE WHEN s_wins THEN coalesce(s.year, t.year) ELSE coalesce(t.year, s.year) END,
    t.published = CASE WHEN s_wins THEN coalesce(s.published, t.published) ELSE coalesce(t.published, s.published) END,
    t.abstract = CASE WHEN s_wins THEN coalesce(s.abstract, t.abstract) ELSE coalesce(t.abstract, s.abstract) END,
    t.abstract_excerpt = CASE WHEN s_wins THEN coalesce(s.abstract_excerpt, t.abstract_excerpt) ELSE coalesce(t.abstract_excerpt, s.abstract_excerpt) END,
    t.license = CASE WHEN s_wins THEN coalesce(s.license, t.license) ELSE coalesce(t.license, s.license) END,
    t.version = CASE WHEN s_wins THEN coalesce(s.version, t.version) ELSE coalesce(t.version, s.version) END,
    t.doi = CASE WHEN s_wins THEN coalesce(s.doi, t.doi) ELSE coalesce(t.doi, s.doi) END,
    t.journal_ref = CASE WHEN s_wins THEN coalesce(s.journal_ref, t.journal_ref) ELSE coalesce(t.journal_ref, s.journal_ref) END,
    t.comments = CASE WHEN s_wins THEN coalesce(s.comments, t.comments) ELSE coalesce(t.comments, s.comments) END,
    t.stated_cited_by = CASE WHEN s_wins THEN coalesce(s.stated_cited_by, t.stated_cited_by) ELSE coalesce(t.stated_cited_by, s.stated_cited_by) END,
    t.stated_cited_by_in_map = CASE WHEN s_wins THEN coalesce(s.stated_cited_by_in_map, t.stated_cited_by_in_map) ELSE coalesce(t.stated_cited_by_in_map, s.stated_cited_by_in_map) END,
    t.stated_refs_total = CASE WHEN s_wins THEN coalesce(s.stated_refs_total, t.stated_refs_total) ELSE coalesce(t.stated_refs_total, s.stated_refs_total) END,
    t.stated_refs_in_map = CASE WHEN s_wins THEN coalesce(s.stated_refs_in_map, t.stated_refs_in_map) ELSE coalesce(t.stated_refs_in_map, s.stated_refs_in_map) END,
    t.as_of = CASE WHEN s.as_of > t.as_of OR t.as_of IS NULL THEN s.as_of ELSE t.as_of END,
    t.ref_as_of = CASE WHEN s.ref_as_of > t.ref_as_of OR t.ref_as_of IS NULL THEN s.ref_as_of ELSE t.ref_as_of END,
    t.authors_as_of = CASE WHEN newer_authors THEN s.authors_as_of ELSE t.authors_as_of END,
    t.categories_as_of = CASE WHEN newer_categories THEN s.categories_as_of ELSE t.categories_as_of END,
    t.primary_category = CASE WHEN newer_categories THEN s.primary_category ELSE t.primary_category END,
    t.aliases = COLLECT {
      UNWIND coalesce(t.aliases, []) + [s.key] + coalesce(s.aliases, []) AS k
      WITH DISTINCT k RETURN k ORDER BY k
    }
DETACH DELETE s
RETURN count(*) AS merged
