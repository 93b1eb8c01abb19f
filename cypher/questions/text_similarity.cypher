// name: text_similarity
// mode: read
// The cosine similarity (-1 to 1) of the text embeddings `kg embed` stored, for each seed
// paper and each other paper named, where both have one: the recommendations' "abstracts
// 0.81 alike". vector.similarity.cosine gives (1 + cosine) / 2, as the vector index does.
// param seeds: list[str]  node keys of the seed papers
// param keys: list[str]  node keys of the papers to compare with them
MATCH (s:Paper)
WHERE s.key IN $seeds AND s.embedding IS NOT NULL
MATCH (x:Paper)
WHERE x.key IN $keys AND x.embedding IS NOT NULL
RETURN s.key AS seed, x.key AS key,
       2 * vector.similarity.cosine(s.embedding, x.embedding) - 1 AS similarity
