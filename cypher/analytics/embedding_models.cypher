// name: embedding_models
// mode: read
// The models whose vectors the papers hold (`kg embed`, or a file `kg embed --from`
// brought), with how many papers hold each: one index must hold one model's vectors.
MATCH (p:Paper)
WHERE p.embedding_model IS NOT NULL
RETURN p.embedding_model AS model, count(*) AS papers
ORDER BY papers DESC, model
