// name: similar_graph
// mode: read
// The stored similarity of a paper drawn in Neo4j Browser: the paper, its top co-cited
// and coupled papers, and the real CO_CITED and COUPLED relationships `kg similar --write`
// stored (together, cosine, jaccard, rank), styled by cypher/map.grass. Nothing is drawn
// before a similarity run; `kg cocited` says whether the stored lists are fresh.
// param key: str  node key of the paper, e.g. 'hep-th/9711200'
// param limit: int = 10  how many papers of each kind to draw
MATCH (a:Paper {key: $key})
CALL (a) {
  MATCH (a)-[s:CO_CITED]->(b:Paper)
  WHERE s.rank <= $limit
  RETURN s, b
  UNION
  MATCH (a)-[s:COUPLED]->(b:Paper)
  WHERE s.rank <= $limit
  RETURN s, b
}
RETURN a, s, b
