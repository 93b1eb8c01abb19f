// name: author_ids
// mode: write
// The strong ids a source gives an author (ORCID, OpenAlex's author id, Semantic
// Scholar's authorId; loaders.ids): each one an (:AuthorId {key: '<kind>:<value>'}) node
// that IDENTIFIES the author. Authors an id identifies are one person, and the loader's
// reconcile merges them (author_id_authors.cypher, merge_authors.cypher). A name is no id:
// an author known by name alone has none.
// param rows: list[map]  one map per author: key, ids (id keys, sorted)
UNWIND $rows AS row
MATCH (a:Author {key: row.key})
UNWIND row.ids AS id
MERGE (i:AuthorId {key: id})
ON CREATE SET i.kind = split(id, ':')[0], i.value = substring(id, size(split(id, ':')[0]) + 1)
MERGE (i)-[:IDENTIFIES]->(a)
