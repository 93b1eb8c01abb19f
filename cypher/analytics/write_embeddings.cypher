// name: write_embeddings
// mode: write
// Store one batch of text embeddings: each paper's vector (as a float32 vector property),
// the hash of the text it was computed from and the model that computed it.
// Idempotent: writing the same rows again leaves the same values.
// param rows: list[map]  {key, hash, vector: list of floats}
// param model: str  the model's name and version
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
CALL db.create.setNodeVectorProperty(p, 'embedding', row.vector)
SET p.embedding_hash = row.hash, p.embedding_model = $model
RETURN count(p) AS written
