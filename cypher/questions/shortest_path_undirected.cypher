// name: shortest_path_undirected
// mode: read
// A shortest path between two papers over CITES in either direction, no longer than
// $max_hops. Each hop says whether the paper cites the next one or is cited by it.
// The search reaches at most 30 hops (a variable-length bound cannot be a parameter); the
// length is checked after the search so that Neo4j keeps its fast bidirectional BFS.
// No row means no path within the bound.
// param source: str  node key of the paper the path starts at
// param target: str  node key of the paper the path ends at
// param max_hops: int = 30  the longest path to accept, at most 30
MATCH (a:Paper {key: $source}), (b:Paper {key: $target})
MATCH path = shortestPath((a)-[:CITES*..30]-(b))
WITH path WHERE length(path) <= $max_hops
WITH path, nodes(path) AS papers, relationships(path) AS hops
RETURN [p IN papers | p {.key, .arxiv_id, .title, .year, stub: coalesce(p.stub, false)}] AS papers,
       [i IN range(0, size(hops) - 1) |
         CASE WHEN startNode(hops[i]) = papers[i] THEN 'cites' ELSE 'cited_by' END] AS directions
ORDER BY [p IN papers | p.key]
