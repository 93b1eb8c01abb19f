// name: similar_stored_coupled
// mode: read
// Every stored COUPLED list, best first, so that a new similarity run rewrites only the
// papers whose list changed: per paper (by key), [key, together, size_a, size_b]
// of each listed paper (cosine and Jaccard follow from the counts).
MATCH (a:Paper)-[s:COUPLED]->(b:Paper)
WITH a, s, b ORDER BY s.rank
RETURN a.key AS key, collect([b.key, s.together, s.size_a, s.size_b]) AS similar
