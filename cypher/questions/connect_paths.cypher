// name: connect_paths
// mode: read
// The literature connector's paths: for every pair of seed papers, the shortest citation
// paths between them, over CITES in either direction, that pass through at least one other
// paper (a direct citation between two seeds puts no paper between them, so then the
// two-hop paths are the shortest), no longer than $max_hops, at most $max_paths per pair
// (in key order of their papers). Each hop says whether the paper cites the next one or
// is cited by it. A pair with no such path has no row.
// param keys: list[str]  node keys of the seed papers
// param max_hops: int = 4  the longest path to accept, 2 to 30
// param max_paths: int = 50  the most paths to keep per pair of seeds
UNWIND $keys AS source_key
UNWIND $keys AS target_key
WITH source_key, target_key WHERE source_key < target_key
MATCH (a:Paper {key: source_key}), (b:Paper {key: target_key})
CALL (a, b) {
  MATCH path = (a)-[:CITES]-(:Paper)-[:CITES]-(b)
  RETURN path
  UNION
  MATCH path = allShortestPaths((a)-[:CITES*..30]-(b))
  WITH path WHERE 2 <= length(path) <= $max_hops
  RETURN path
}
WITH a, b, path ORDER BY length(path), [p IN nodes(path) | p.key]
WITH a, b, collect(path) AS found
UNWIND [p IN found WHERE length(p) = length(found[0])][0..$max_paths] AS path
WITH a, b, nodes(path) AS papers, relationships(path) AS hops
RETURN a.key AS source, b.key AS target,
       [p IN papers | p {.key, .arxiv_id, .title, .year, stub: coalesce(p.stub, false)}] AS papers,
       [i IN range(0, size(hops) - 1) |
         CASE WHEN startNode(hops[i]) = papers[i] THEN 'cites' ELSE 'cited_by' END] AS directions
ORDER BY source, target, size(papers), [p IN papers | p.key]
