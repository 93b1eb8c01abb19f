// name: restore_part
// mode: write
// Write a title key with a full record of its own back as the paper it was before it merged
// (merge_papers.cypher kept it as a (:Folded) copy), once split_key.cypher has taken it
// out of the paper that held it: its record's values, author list, categories, titles and
// the record's DESCRIBED_IN links. What references stated under the key (its best one,
// the counts, the citations) the loader writes back after this through the load statements
// (kg.load.neo4j_sink.split_rows), and the keys it had absorbed stay where they are: the
// identity rule places each. The copy is removed.
// param key: str  the title key
MATCH (f:Folded {key: $key})
MERGE (p:Paper {key: $key})
SET p:Paper
WITH p, f, [k IN ['title', 'norm_title', 'year'] WHERE f.stub OR k + '=' IN coalesce(f.filled_as_of, [])] AS from_refs
WITH p, f, from_refs, [x IN coalesce(f.filled_as_of, []) WHERE NOT x IN ['title=', 'norm_title=', 'year=']] AS filled
SET p += f {
      .stub, .arxiv_id, .published, .abstract, .abstract_excerpt, .license, .version, .doi,
      .journal_ref, .comments, .stated_cited_by, .stated_cited_by_in_map, .stated_refs_total,
      .stated_refs_in_map, .as_of, .authors_as_of, .categories_as_of, .primary_category, .years,
      title: CASE WHEN 'title' IN from_refs THEN null ELSE f.title END,
      norm_title: CASE WHEN 'norm_title' IN from_refs THEN null ELSE f.norm_title END,
      year: CASE WHEN 'year' IN from_refs THEN null ELSE f.year END,
      filled_as_of: CASE WHEN filled = [] THEN null ELSE filled END,
      recorded: [$key]
    },
    p.changed_at = datetime.transaction()
WITH p, f
CALL (p, f) {
  UNWIND range(0, size(f.authors) - 1) AS i
  MATCH (a:Author {key: f.authors[i]})
  MERGE (a)-[w:AUTHORED]->(p)
  SET w.position = i + 1
}
CALL (p, f) {
  UNWIND f.primary AS code
  MATCH (c:Category {code: code})
  MERGE (p)-[:PRIMARY_CATEGORY]->(c)
}
CALL (p, f) {
  UNWIND f.cross AS code
  MATCH (c:Category {code: code})
  MERGE (p)-[:CROSS_LISTED]->(c)
}
CALL (p, f) {
  UNWIND [t IN f.titles WHERE t <> p.norm_title] AS norm
  MERGE (p)-[:ALSO_TITLED {norm_title: norm}]->(p)
}
// The record's links; the counts references stated under the key come back with them
CALL (p, f) {
  MATCH (f)-[c:FOLDED_IN]->(n:Snapshot) WHERE c.line IS NOT NULL
  MERGE (p)-[d:DESCRIBED_IN]->(n)
  SET d = properties(c)
  REMOVE d.named
}
DETACH DELETE f
RETURN p.key AS key
