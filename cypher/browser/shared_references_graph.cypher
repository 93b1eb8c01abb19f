// name: shared_references_graph
// mode: read
// What A and B both cite, drawn in Neo4j Browser: both papers, the references they share
// and the CITES relationships that make them shared.
// param a: str  node key of the first paper
// param b: str  node key of the second paper
MATCH path = (:Paper {key: $a})-[:CITES]->(:Paper)<-[:CITES]-(:Paper {key: $b})
RETURN path
