// name: author_by_id
// mode: read
// The author a strong id identifies (an ORCID, OpenAlex's or Semantic Scholar's author id).
// param id: str  author id key, e.g. 'orcid:0000-0002-1825-0097'
MATCH (:AuthorId {key: $id})-[:IDENTIFIES]->(a:Author)
RETURN a.key AS key
ORDER BY key
LIMIT 1
