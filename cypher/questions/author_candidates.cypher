// name: author_candidates
// mode: read
// Authors for a name: those whose key (the normalised name), or for an author keyed by a
// strong id one of whose normalised spellings (`norm_names`), is $name_key first, then
// those whose name holds every word of $words, with how many papers each wrote.
// param name_key: str  the normalised name (kg.loaders.identity.normalize_name), e.g. 'ang wang'
// param words: list[str]  the words of the normalised name, e.g. ['ang', 'wang']
// param limit: int = 10  how many authors to return
MATCH (a:Author)
WITH a, coalesce(a.norm_names, [a.key]) AS spelled
WHERE a.key = $name_key OR $name_key IN spelled
   OR any(n IN spelled WHERE all(word IN $words WHERE n CONTAINS word))
RETURN a.key AS key, a.name AS name, (a.key = $name_key OR $name_key IN spelled) AS exact,
       COUNT { (a)-[:AUTHORED]->(:Paper) } AS papers
ORDER BY exact DESC, papers DESC, key
LIMIT $limit
