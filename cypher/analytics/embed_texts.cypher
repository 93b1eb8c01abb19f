// name: embed_texts
// mode: read
// One page of the titled papers, in key order after $after: each one's title and abstract
// (the excerpt when there is no full abstract), and the hash of the text and the model of
// its stored vector (null when it has none), for `kg embed` to tell what changed.
// param after: str = ''  the last key of the previous page ('' for the first page)
// param page: int = 2000  how many papers to return
MATCH (p:Paper)
WHERE p.key > $after AND p.title IS NOT NULL
RETURN p.key AS key, p.title AS title, coalesce(p.abstract, p.abstract_excerpt) AS abstract,
       p.embedding_hash AS hash, p.embedding_model AS model
ORDER BY p.key
LIMIT $page
