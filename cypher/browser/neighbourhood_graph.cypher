// name: neighbourhood_graph
// mode: read
// A paper's neighbourhood drawn in Neo4j Browser: the paper, the $limit most cited papers
// within $hops citation hops (either direction; a breadth-first walk by APOC core), and
// the citations among them.
// param key: str  node key of the paper at the centre
// param hops: int = 1  how many hops to go out
// param limit: int = 30  how many neighbours to draw
MATCH (p:Paper {key: $key})
CALL apoc.path.subgraphNodes(p, {relationshipFilter: 'CITES', maxLevel: $hops})
YIELD node
WITH p, node
WHERE node <> p
WITH p, node
ORDER BY COUNT { (node)<-[:CITES]-() } DESC, node.key
LIMIT $limit
WITH p, collect(node) + p AS shown
UNWIND shown AS x
MATCH (x)-[c:CITES]->(y:Paper)
WHERE y IN shown
RETURN x, c, y
