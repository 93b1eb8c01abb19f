// name: merge_papers
// mode: write
// Entity resolution: fold one paper into another that the identity rule says is the same
// paper (kg.loaders.identity.title_merges picks the target), or that shares a strong id
// with it (kg.load.neo4j_sink.GraphWriter.reconcile_ids). Its relationships move to
// the target; each property comes from whichever of the two got it from the newer record,
// as in papers.cypher; the author list and the categories from whichever has the newer
// list; CITES snapshot lists stay sorted sets, and CITES `named` says which key each
// snapshot named (citations.cypher); the target keeps every key it was known by
// in `aliases` (sorted), the best reference of each in `key_refs` (as stubs.cypher), the
// title keys with records of their own in `recorded` (as papers.cypher), the citations
// between the two in `self_cites` and every other title as an ALSO_TITLED loop; its `years` stay those stated under its own
// key (a merged title key's year is in the key, where the identity rule reads it); the
// source is deleted. The result does
// not depend on which merge ran first. The target, and any paper that gains an edge to it,
// get a new changed_at (stored similarity is stale for them).
// param source: str  key of the paper that merges away
// param target: str  key of the paper it becomes
MATCH (s:Paper {key: $source})
MATCH (t:Paper {key: $target})
WHERE s <> t
// Both papers' write locks before either is read (setting a label they have writes
// nothing): a loader writing the arXiv paper's record holds no title lock
SET s:Paper, t:Paper
WITH s, t
// A merge that gives the target a title key with a full record of its own (`recorded`)
// first keeps, as a (:Folded {key}) copy, each part the identity rule may take out of it
// again: the target as it stands (its base) and a source that is such a key's own paper,
// each with its author list, categories, titles and DESCRIBED_IN links (FOLDED_IN). A part
// that holds one already keeps it: every write to a paper that holds such a key takes it
// apart first (kg.load.neo4j_sink.GraphWriter.take_apart), so a copy is never stale
CALL (s, t) {
  WITH s, t WHERE coalesce(s.recorded, []) + coalesce(t.recorded, []) <> []
  UNWIND [x IN [s, t] WHERE x = t OR x.key IN coalesce(x.recorded, [])] AS x
  WITH x WHERE NOT EXISTS { MATCH (:Folded {key: x.key}) }
  CREATE (f:Folded)
  SET f = properties(x),
      f.authors = COLLECT { MATCH (a:Author)-[w:AUTHORED]->(x) RETURN a.key ORDER BY w.position },
      f.primary = COLLECT { MATCH (x)-[:PRIMARY_CATEGORY]->(c:Category) RETURN c.code },
      f.cross = COLLECT { MATCH (x)-[:CROSS_LISTED]->(c:Category) RETURN c.code ORDER BY c.code },
      f.titles = COLLECT { MATCH (x)-[v:ALSO_TITLED]->(x) RETURN v.norm_title ORDER BY v.norm_title }
  WITH x, f
  MATCH (x)-[d:DESCRIBED_IN]->(n:Snapshot)
  CREATE (f)-[c:FOLDED_IN]->(n)
  SET c = properties(d)
}
// The copy of a source that merges away as a key no record of its own was written under
// (a title-only paper of references that held such keys) is no part any more
CALL (s) {
  MATCH (f:Folded {key: s.key}) WHERE NOT s.key IN coalesce(s.recorded, [])
  DETACH DELETE f
}
// Every title either paper was known by stays a title of the target (ALSO_TITLED loops, as
// in papers.cypher); the one the target ends up holding is taken off again below
CALL (s, t) {
  UNWIND [t.norm_title, s.norm_title] + COLLECT {
    MATCH (s)-[v:ALSO_TITLED]->(s) RETURN v.norm_title AS norm
  } AS norm
  WITH DISTINCT t, norm WHERE norm IS NOT NULL
  MERGE (t)-[:ALSO_TITLED {norm_title: norm}]->(t)
}
// CITES `named` keeps which keys each snapshot named, as in citations.cypher: an edge's
// snapshots with no `named` named its own two papers, which stops being true of the moved
// edge once s is gone, so the list is written out whenever the two differ
CALL (s, t) {
  MATCH (s)-[r:CITES]->(o) WHERE o <> t
  MERGE (t)-[n:CITES]->(o)
  ON CREATE SET o.changed_at = datetime.transaction()
  // The edge's write lock before the WITH below reads it (only a SET whose right side reads
  // the edge takes it by itself): a loader writing a citation by arXiv id holds no title lock
  SET n.snapshots = coalesce(n.snapshots, [])
  WITH t, o, n, COLLECT {
         UNWIND coalesce(n.named, [k IN coalesce(n.snapshots, []) | k + '|' + t.key + '|' + o.key])
                + coalesce(r.named, [k IN r.snapshots | k + '|' + s.key + '|' + o.key]) AS k
         WITH DISTINCT k RETURN k ORDER BY k
       } AS named, r
  SET n.named = CASE WHEN all(k IN named WHERE k ENDS WITH '|' + t.key + '|' + o.key) THEN null ELSE named END,
      n.snapshots = COLLECT {
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
  // The edge's write lock before the WITH below reads it (only a SET whose right side reads
  // the edge takes it by itself): a loader writing a citation by arXiv id holds no title lock
  SET n.snapshots = coalesce(n.snapshots, [])
  WITH t, o, n, COLLECT {
         UNWIND coalesce(n.named, [k IN coalesce(n.snapshots, []) | k + '|' + o.key + '|' + t.key])
                + coalesce(r.named, [k IN r.snapshots | k + '|' + o.key + '|' + s.key]) AS k
         WITH DISTINCT k RETURN k ORDER BY k
       } AS named, r
  SET n.named = CASE WHEN all(k IN named WHERE k ENDS WITH '|' + o.key + '|' + t.key) THEN null ELSE named END,
      n.snapshots = COLLECT {
        UNWIND coalesce(n.snapshots, []) + r.snapshots AS k
        WITH DISTINCT k RETURN k ORDER BY k
      },
      n.first_seen = CASE WHEN n.first_seen IS NULL OR r.first_seen < n.first_seen THEN r.first_seen ELSE n.first_seen END,
      n.last_seen = CASE WHEN n.last_seen IS NULL OR r.last_seen > n.last_seen THEN r.last_seen ELSE n.last_seen END
  DELETE r
}
// A record on either link wins (the newer of two, as in papers.cypher); two links of
// references keep the largest count and the newest date, and which key each came under
// (`named`, as in stubs.cypher)
CALL (s, t) {
  MATCH (s)-[r:DESCRIBED_IN]->(x)
  MERGE (t)-[n:DESCRIBED_IN]->(x)
  WITH s, t, r, n,
       r.line IS NOT NULL AND (n.line IS NULL
         OR coalesce(toString(r.as_of), '') > coalesce(toString(n.as_of), '')
         OR coalesce(toString(r.as_of), '') = coalesce(toString(n.as_of), '') AND r.line > n.line) AS from_r,
       coalesce(r.named, CASE WHEN r.line IS NULL AND r.stated_cited_by IS NOT NULL
         THEN [s.key + '|' + toString(r.stated_cited_by) + '|' + coalesce(toString(r.as_of), '')]
         ELSE [] END)
       + coalesce(n.named, CASE WHEN n.line IS NULL AND n.stated_cited_by IS NOT NULL
         THEN [t.key + '|' + toString(n.stated_cited_by) + '|' + coalesce(toString(n.as_of), '')]
         ELSE [] END) AS entries
  // The newer record replaces every value papers.cypher writes, a missing one too
  SET n += CASE WHEN from_r THEN r {
        .*,
        stated_cited_by: r.stated_cited_by,
        stated_cited_by_in_map: r.stated_cited_by_in_map,
        stated_refs_total: r.stated_refs_total,
        stated_refs_in_map: r.stated_refs_in_map,
        listed_refs: r.listed_refs,
        listed_citing: r.listed_citing,
        histogram_years: r.histogram_years,
        histogram_counts: r.histogram_counts
      } ELSE {} END
  SET n.stated_cited_by = CASE
        WHEN n.line IS NOT NULL OR r.line IS NOT NULL THEN n.stated_cited_by
        WHEN n.stated_cited_by IS NULL OR r.stated_cited_by > n.stated_cited_by THEN r.stated_cited_by
        ELSE n.stated_cited_by END,
      n.as_of = CASE
        WHEN n.line IS NOT NULL OR r.line IS NOT NULL THEN n.as_of
        WHEN n.as_of IS NULL OR r.as_of > n.as_of THEN r.as_of
        ELSE n.as_of END,
      // One entry per key, its largest count and newest date (as stubs.cypher keeps it)
      n.named = CASE WHEN entries = [] OR n.line IS NULL AND all(e IN entries WHERE e STARTS WITH t.key + '|')
        THEN null ELSE COLLECT {
          UNWIND entries AS e
          WITH split(e, '|') AS x
          WITH x[0] AS k, max(toInteger(x[1])) AS count, max(x[2]) AS date
          RETURN k + '|' + toString(count) + '|' + date AS e ORDER BY e
        } END
  DELETE r
}
WITH s, t,
     s.authors_as_of IS NOT NULL AND (t.authors_as_of IS NULL OR s.authors_as_of > t.authors_as_of) AS newer_authors,
     s.categories_as_of IS NOT NULL AND (t.categories_as_of IS NULL OR s.categories_as_of > t.categories_as_of) AS newer_categories
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
// Each property comes from whichever of the two got it from the newer record (filled_as_of
// and as_of say which; '' for a reference, two of those ordered by ref_as_of)
WITH s, t, newer_authors, newer_categories,
     ['title', 'norm_title', 'year', 'published', 'abstract', 'abstract_excerpt', 'license',
      'version', 'doi', 'journal_ref', 'comments', 'stated_cited_by', 'stated_cited_by_in_map',
      'stated_refs_total', 'stated_refs_in_map', 'topics'] AS names,
     coalesce(s.as_of, '') AS s_top, coalesce(t.as_of, '') AS t_top
WITH s, t, newer_authors, newer_categories, names, s_top, t_top, range(0, size(names) - 1) AS at,
     CASE WHEN s_top > t_top THEN s_top ELSE t_top END AS newest,
     [k IN names | coalesce(head([f IN coalesce(s.filled_as_of, []) WHERE f STARTS WITH k + '=' | substring(f, size(k) + 1)]), s_top)] AS s_held,
     [k IN names | coalesce(head([f IN coalesce(t.filled_as_of, []) WHERE f STARTS WITH k + '=' | substring(f, size(k) + 1)]), t_top)] AS t_held
WITH s, t, newer_authors, newer_categories, names, at, newest, s_held, t_held,
     // A title and a year no record gave either paper come as a whole from the better
     // reference, a missing year too (as stubs.cypher takes them)
     [i IN at | CASE
       WHEN i < 3 AND (t[names[i]] IS NULL OR t_held[i] = '') AND (s[names[i]] IS NULL OR s_held[i] = '')
       THEN coalesce(s.ref_as_of, '') > coalesce(t.ref_as_of, '')
       ELSE s[names[i]] IS NOT NULL AND (t[names[i]] IS NULL OR s_held[i] > t_held[i] OR
         s_held[i] = t_held[i] AND CASE WHEN s_held[i] = '' THEN coalesce(s.ref_as_of, '') > coalesce(t.ref_as_of, '') ELSE s_top > t_top END) END] AS from_s
WITH s, t, newer_authors, newer_categories, names, at, newest,
     [i IN at | CASE WHEN from_s[i] THEN s[names[i]] ELSE t[names[i]] END] AS value,
     [i IN at | CASE WHEN from_s[i] THEN s_held[i] ELSE t_held[i] END] AS source
WITH s, t, newer_authors, newer_categories, value,
     // The best reference of each key (stubs.cypher's key_refs): a paper that absorbed
     // nothing yet holds its own key's alone
     coalesce(t.key_refs, CASE WHEN t.ref_as_of IS NULL THEN [] ELSE [t.key + '|' + t.ref_as_of] END) AS t_refs,
     coalesce(s.key_refs, CASE WHEN s.ref_as_of IS NULL THEN [] ELSE [s.key + '|' + s.ref_as_of] END) AS s_refs,
     // Citations between the two become citations between two keys of one paper: not an
     // edge, but kept in `self_cites` ('snapshot|citing|cited', as CITES `named`)
     COLLECT {
       UNWIND coalesce(t.self_cites, []) + coalesce(s.self_cites, [])
              + COLLECT {
                  MATCH (s)-[r:CITES]->(t)
                  UNWIND coalesce(r.named, [k IN r.snapshots | k + '|' + s.key + '|' + t.key]) AS e
                  RETURN e
                }
              + COLLECT {
                  MATCH (t)-[r:CITES]->(s)
                  UNWIND coalesce(r.named, [k IN r.snapshots | k + '|' + t.key + '|' + s.key]) AS e
                  RETURN e
                } AS e
       WITH DISTINCT e RETURN e ORDER BY e
     } AS selves,
     COLLECT {
       UNWIND [i IN at WHERE value[i] IS NOT NULL AND source[i] <> newest | names[i] + '=' + source[i]] AS f
       RETURN f ORDER BY f
     } AS filled
SET t += {
      title: value[0],
      norm_title: value[1],
      year: value[2],
      published: value[3],
      abstract: value[4],
      abstract_excerpt: value[5],
      license: value[6],
      version: value[7],
      doi: value[8],
      journal_ref: value[9],
      comments: value[10],
      stated_cited_by: value[11],
      stated_cited_by_in_map: value[12],
      stated_refs_total: value[13],
      stated_refs_in_map: value[14],
      topics: value[15],
      filled_as_of: CASE WHEN filled = [] THEN null ELSE filled END
    },
    t.stub = t.stub AND s.stub,
    t.changed_at = datetime.transaction(),
    t.arxiv_id = coalesce(t.arxiv_id, s.arxiv_id),
    t.as_of = CASE WHEN s.as_of > t.as_of OR t.as_of IS NULL THEN s.as_of ELSE t.as_of END,
    t.ref_as_of = CASE WHEN s.ref_as_of > t.ref_as_of OR t.ref_as_of IS NULL THEN s.ref_as_of ELSE t.ref_as_of END,
    t.authors_as_of = CASE WHEN newer_authors THEN s.authors_as_of ELSE t.authors_as_of END,
    t.categories_as_of = CASE WHEN newer_categories THEN s.categories_as_of ELSE t.categories_as_of END,
    t.primary_category = CASE WHEN newer_categories THEN s.primary_category ELSE t.primary_category END,
    // One entry per key, the best (as stubs.cypher keeps it): both can hold one for a key
    // when a record under a key the target holds made a paper of it again, and a loader
    // wrote a reference to that paper before the reconcile merged it back
    t.key_refs = CASE WHEN t_refs + s_refs = [] THEN null ELSE COLLECT {
      UNWIND t_refs + s_refs AS e
      WITH split(e, '|')[0] AS k, substring(e, size(split(e, '|')[0]) + 1) AS rank
      WITH k, max(rank) AS rank
      RETURN k + '|' + rank AS e ORDER BY e
    } END,
    t.recorded = CASE WHEN s.recorded IS NULL THEN t.recorded ELSE COLLECT {
      UNWIND coalesce(t.recorded, []) + s.recorded AS k
      WITH DISTINCT k RETURN k ORDER BY k
    } END,
    t.self_cites = CASE WHEN selves = [] THEN null ELSE selves END,
    t.aliases = COLLECT {
      UNWIND coalesce(t.aliases, []) + [s.key] + coalesce(s.aliases, []) AS k
      WITH DISTINCT k RETURN k ORDER BY k
    }
WITH s, t
CALL (t) {
  MATCH (t)-[held:ALSO_TITLED]->(t) WHERE held.norm_title = t.norm_title
  DELETE held
}
// Every strong id of the source identifies the target (paper_ids.cypher)
CALL (s, t) {
  MATCH (i:PaperId)-[r:IDENTIFIES]->(s)
  MERGE (i)-[:IDENTIFIES]->(t)
  DELETE r
}
DETACH DELETE s
RETURN count(*) AS merged
