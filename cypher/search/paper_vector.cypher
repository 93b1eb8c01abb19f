// name: paper_vector
// mode: read
// A paper's stored text embedding and the model that made it (no row when it has none).
// param key: str  node key of the paper
MATCH (p:Paper {key: $key})
WHERE p.embedding IS NOT NULL
RETURN p.embedding AS vector, p.embedding_model AS model
