// name: common_citers_graph
// mode: read
// Who cites both A and B, drawn in Neo4j Browser: both papers, the papers citing both and
// their CITES relationships.
// param a: str  node key of the first paper
// param b: str  node key of the second paper
MATCH path = (:Paper {key: $a})<-[:CITES]-(:Paper)-[:CITES]->(:Paper {key: $b})
RETURN path
