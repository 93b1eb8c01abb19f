// name: author_id_authors
// mode: read
// The authors each of these strong ids identifies, with every id of each: what the rule
// for authors' ids needs to see which authors are one person
// (kg.load.neo4j_sink.GraphWriter.reconcile_authors).
// param keys: list[str]  author id keys, ascending
UNWIND $keys AS key
MATCH (:AuthorId {key: key})-[:IDENTIFIES]->(a:Author)
RETURN key, a.key AS author, COLLECT { MATCH (i:AuthorId)-[:IDENTIFIES]->(a) RETURN i.key } AS ids
