// name: restore_folded
// mode: write
// Give one part of a paper that is taken apart back what it held when it merged (its
// (:Folded) copy, which merge_papers.cypher kept), once split_key.cypher has taken the
// title keys with records of their own out of the paper: its records' values, author list,
// categories, titles and DESCRIBED_IN record links. The part is the paper itself (its base)
// or a key taken out, which becomes a paper again (MERGE). The keys only references named
// stay where they are, and so does what they gave the paper but its best reference's title
// and year, which the loader writes back after this (returned as `best`, an entry of
// `key_refs`); for a key taken out, the loader writes back what references stated under it.
// A link whose record came from a key taken out keeps only the counts references stated
// (split_key.cypher's rule), or goes. The copy is removed.
// param key: str  node key of the part
MATCH (f:Folded {key: $key})
MERGE (h:Paper {key: $key})
SET h:Paper
WITH h, f, h.norm_title AS before,
     head([e IN coalesce(h.key_refs, []) WHERE substring(e, size(split(e, '|')[0]) + 1) = h.ref_as_of]) AS kept,
     [k IN ['title', 'norm_title', 'year'] WHERE f.stub OR k + '=' IN coalesce(f.filled_as_of, [])] AS from_refs
WITH h, f, before, from_refs,
     CASE WHEN h.ref_as_of IS NULL THEN null ELSE coalesce(kept, h.key + '|' + h.ref_as_of) END AS best,
     [x IN coalesce(f.filled_as_of, []) WHERE NOT x IN ['title=', 'norm_title=', 'year=']] AS filled
SET h += f {
      .stub, .arxiv_id, .published, .abstract, .abstract_excerpt, .license, .version, .doi,
      .journal_ref, .comments, .stated_cited_by, .stated_cited_by_in_map, .stated_refs_total,
      .stated_refs_in_map, .topics, .as_of, .authors_as_of, .categories_as_of, .primary_category,
      title: CASE WHEN 'title' IN from_refs THEN null ELSE f.title END,
      norm_title: CASE WHEN 'norm_title' IN from_refs THEN null ELSE f.norm_title END,
      year: CASE WHEN 'year' IN from_refs THEN null ELSE f.year END,
      filled_as_of: CASE WHEN filled = [] THEN null ELSE filled END,
      // the years stated under its own key: a paper's stay (a merge adds none), a key taken
      // out gets its own back
      years: coalesce(h.years, f.years),
      recorded: CASE WHEN h.key IN coalesce(f.recorded, []) THEN [h.key] ELSE null END,
      ref_as_of: null
    },
    h.changed_at = datetime.transaction()
WITH h, f, before, best
CALL (h) {
  MATCH (:Author)-[old:AUTHORED]->(h)
  DELETE old
}
CALL (h, f) {
  UNWIND range(0, size(f.authors) - 1) AS i
  MATCH (a:Author {key: f.authors[i]})
  MERGE (a)-[w:AUTHORED]->(h)
  SET w.position = i + 1
}
CALL (h) {
  MATCH (h)-[old:PRIMARY_CATEGORY|CROSS_LISTED]->(:Category)
  DELETE old
}
CALL (h, f) {
  UNWIND f.primary AS code
  MATCH (c:Category {code: code})
  MERGE (h)-[:PRIMARY_CATEGORY]->(c)
}
CALL (h, f) {
  UNWIND f.cross AS code
  MATCH (c:Category {code: code})
  MERGE (h)-[:CROSS_LISTED]->(c)
}
// Its titles, and one it gives up (as in papers.cypher)
CALL (h, f, before) {
  UNWIND [t IN f.titles + [before] WHERE t IS NOT NULL AND t <> h.norm_title] AS norm
  MERGE (h)-[:ALSO_TITLED {norm_title: norm}]->(h)
}
CALL (h) {
  MATCH (h)-[held:ALSO_TITLED]->(h) WHERE held.norm_title = h.norm_title
  DELETE held
}
// Each record link the copy holds, with the counts references stated on it now (`named`)
CALL (h, f) {
  MATCH (f)-[c:FOLDED_IN]->(n:Snapshot) WHERE c.line IS NOT NULL
  MERGE (h)-[d:DESCRIBED_IN]->(n)
  WITH d, c, d.named AS named
  SET d = properties(c)
  SET d.named = named
}
// A link with a record the copy does not hold: the record came from a key taken out
CALL (h, f) {
  MATCH (h)-[d:DESCRIBED_IN]->(n:Snapshot) WHERE d.line IS NOT NULL
    AND NOT EXISTS { MATCH (f)-[c:FOLDED_IN]->(n) WHERE c.line IS NOT NULL }
  WITH h, d, coalesce(d.named, []) AS rest
  WITH h, d, rest,
       reduce(top = '', e IN rest | CASE WHEN split(e, '|')[2] > top THEN split(e, '|')[2] ELSE top END) AS newest
  CALL (d, rest) {
    WITH d, rest WHERE rest = []
    DELETE d
  }
  CALL (h, d, rest, newest) {
    WITH h, d, rest, newest WHERE rest <> []
    SET d = {
      named: CASE WHEN all(e IN rest WHERE e STARTS WITH h.key + '|') THEN null ELSE rest END,
      stated_cited_by: reduce(top = null, e IN rest | CASE WHEN top IS NULL OR toInteger(split(e, '|')[1]) > top
                                                      THEN toInteger(split(e, '|')[1]) ELSE top END),
      as_of: CASE WHEN newest = '' THEN null ELSE date(newest) END
    }
  }
}
DETACH DELETE f
RETURN best
