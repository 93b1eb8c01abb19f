// name: vector_index
// mode: write
// The vector index of the papers' text embeddings (`kg embed` writes them): cosine
// similarity over p.embedding, with the model's dimension (384 for all-MiniLM-L6-v2), and
// without quantization, so that its scores are the cosines of the stored vectors (with it,
// Neo4j 5.26's default, they were off by up to 0.002 and the order could differ).
// Nothing happens when an index of that name is there already.
// param dimension: int = 384  the length of every vector
CREATE VECTOR INDEX paper_embedding IF NOT EXISTS
FOR (p:Paper) ON p.embedding
OPTIONS {indexConfig: {
  `vector.dimensions`: $dimension,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.enabled`: false
}}
