// name: contested_ids
// mode: read
// The strong ids that identify two or more papers, with those papers' keys (sorted): the
// rule for strong ids keeps two arXiv papers apart though an id names both
// (kg.loaders.ids.id_merges), and a load between two reconciles can leave another such
// pair for a moment. `kg merges --contested` lists them.
MATCH (i:PaperId)-[:IDENTIFIES]->(p:Paper)
WITH i, p ORDER BY p.key
WITH i, collect(p.key) AS papers WHERE size(papers) > 1
RETURN i.key AS id, papers ORDER BY id
