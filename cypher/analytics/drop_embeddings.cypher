// name: drop_embeddings
// mode: auto
// Remove every paper's text embedding, with the hash and model beside it, in transactions
// of $batch_size (`kg embed --from FILE --replace` does it before vectors of another model
// load; the vector index is dropped apart, by drop_vector_index). Uses CALL { } IN
// TRANSACTIONS: it runs as an auto-commit transaction (:auto in Browser).
// param batch_size: int = 10000  papers per transaction
MATCH (p:Paper)
WHERE p.embedding IS NOT NULL OR p.embedding_model IS NOT NULL
CALL (p) {
  REMOVE p.embedding, p.embedding_hash, p.embedding_model
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(*) AS removed
