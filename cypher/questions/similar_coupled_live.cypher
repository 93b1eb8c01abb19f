// name: similar_coupled_live
// mode: read
// Bibliographic coupling computed live with a bound on the work: coupled.cypher, except
// that when the paths a -> reference -> other citer number more than $max_paths, only the
// references with the fewest citers are counted, as many as fit the budget (a hub cited by
// thousands is left out first). Within the budget the answer is exactly coupled.cypher's.
// One row: size_a (all references), counted (references counted), paths (paths walked),
// all_paths (paths through every reference) and results, best first, as coupled.cypher
// returns them. The shared-reference count of the limit-th paper is a floor: papers below
// it are never in the answer, so their reference counts are not looked up.
// The papers at or above the floor are sorted in full and the sorted list is cut to $limit:
// ORDER BY with LIMIT (a top-k sort) charges every row it keeps with the whole of each list
// the row still holds (found, the references), about 1.2 MiB a row on hep-th/9711200, and
// ran out of transaction memory at limit 2000 (neo4j/neo4j#13268); a full sort does not.
// param key: str  node key of the paper
// param limit: int = 20  how many papers to return
// param max_paths: int = 250000  the most reference-to-paper paths to walk
MATCH (a:Paper {key: $key})
CALL (a) {
  MATCH (a)-[:CITES]->(r:Paper)
  WITH r, COUNT { (r)<-[:CITES]-() } AS fanout
  ORDER BY fanout, r.key
  RETURN collect(r) AS refs, collect(fanout) AS fanouts
}
WITH a, refs, fanouts,
     reduce(acc = [0, 0], x IN fanouts |
       CASE WHEN acc[0] + x <= $max_paths THEN [acc[0] + x, acc[1] + 1] ELSE acc END) AS kept
WITH a, refs[0..kept[1]] AS counted, size(refs) AS size_a, kept[0] AS paths,
     reduce(total = 0, x IN fanouts | total + x) AS all_paths
CALL (a, counted, size_a) {
  UNWIND counted AS r
  MATCH (r)<-[:CITES]-(b:Paper)
  WHERE b <> a
  WITH b, count(DISTINCT r) AS together
  ORDER BY together DESC
  WITH collect({b: b, together: together}) AS found
  WITH found, CASE WHEN size(found) > $limit THEN found[$limit - 1].together ELSE 0 END AS floor
  UNWIND found AS hit
  WITH hit WHERE hit.together >= floor
  WITH hit.b AS b, hit.together AS together
  WITH b, together, COUNT { (b)-[:CITES]->() } AS size_b, COUNT { (b)<-[:CITES]-() } AS cited_by
  WITH b, together, size_b, cited_by,
       toFloat(together) / sqrt(toFloat(size_a) * size_b) AS cosine,
       toFloat(together) / (size_a + size_b - together) AS jaccard
  ORDER BY together DESC, cosine DESC, cited_by DESC, b.key
  WITH collect({key: b.key, arxiv_id: b.arxiv_id, title: b.title, year: b.year,
                stub: coalesce(b.stub, false), together: together, size_a: size_a,
                size_b: size_b, cosine: cosine, jaccard: jaccard}) AS ranked
  RETURN ranked[..$limit] AS results
}
RETURN size_a, size(counted) AS counted, paths, all_paths, results
