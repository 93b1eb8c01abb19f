// name: analytics_similar_stored_cocited
// Every stored CO_CITED list, best first, so that a new similarity run rewrites only the
// papers whose list changed: per paper, [key, together, size_a, size_b, cosine, jaccard]
// of each listed paper.
MATCH (a:Paper)-[s:CO_CITED]->(b:Paper)
WITH a, s, b ORDER BY s.rank
RETURN a.key AS key, collect([b.key, s.together, s.size_a, s.size_b, s.cosine, s.jaccard]) AS similar
