// name: author_candidates
// mode: read
// Authors for a name: the one whose key (the normalised name) is $name_key first, then
// those whose key holds every word of $words, with how many papers each wrote.
// param name_key: str  the normalised name (kg.loaders.identity.normalize_name), e.g. 'ang wang'
// param words: list[str]  the words of the normalised name, e.g. ['ang', 'wang']
// param limit: int = 10  how many authors to return
MATCH (a:Author)
WHERE a.key = $name_key OR all(word IN $words WHERE a.key CONTAINS word)
RETURN a.key AS key, a.name AS name, a.key = $name_key AS exact,
       COUNT { (a)-[:AUTHORED]->(:Paper) } AS papers
ORDER BY exact DESC, papers DESC, key
LIMIT $limit
