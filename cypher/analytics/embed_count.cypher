// name: embed_count
// mode: read
// How many papers have a title, and so a text to embed.
MATCH (p:Paper)
WHERE p.title IS NOT NULL
RETURN count(p) AS papers
