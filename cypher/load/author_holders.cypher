// name: author_holders
// mode: read
// The author each of these strong ids identifies now (author_ids.cypher): the loader
// writes an author a record gives these ids for to that author, so a record of an author
// who merged into another writes nothing new.
// param keys: list[str]  author id keys ('orcid:0000-…', 'openalex:A…', 's2:…'), ascending
UNWIND $keys AS key
MATCH (:AuthorId {key: key})-[:IDENTIFIES]->(a:Author)
RETURN key, a.key AS holder
