// name: paper_id_papers
// mode: read
// The papers each of these strong ids identifies (paper_ids.cypher), with every id of each
// of those papers: what the identity rule for strong ids needs to see which papers are one
// (kg.load.neo4j_sink.GraphWriter.reconcile_ids).
// param keys: list[str]  id keys ('doi:10.1145/…', 'openalex:W…'), ascending
UNWIND $keys AS key
MATCH (:PaperId {key: key})-[:IDENTIFIES]->(p:Paper)
RETURN key, p.key AS paper, COLLECT { MATCH (i:PaperId)-[:IDENTIFIES]->(p) RETURN i.key } AS ids
