// name: authors
// mode: write
// Replace a paper's ordered author list when this record is at least as new as the one
// that set it. AUTHORED keeps each author's 1-based position. Authors are keyed by their
// normalised full name; there is no disambiguation beyond the name. The authors exist
// already (author_names runs first, in the same transaction). A paper whose list already
// is this one, from this record, is left as it is.
// param rows: list[map]  one map per paper: key, as_of, authors (a list of {key, name})
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
WITH p, row WHERE p.authors_as_of IS NULL OR row.as_of > p.authors_as_of
   OR row.as_of = p.authors_as_of
      AND COLLECT { MATCH (a:Author)-[w:AUTHORED]->(p) RETURN a.key ORDER BY w.position }
          <> [author IN row.authors | author.key]
CALL (p) {
  MATCH (:Author)-[old:AUTHORED]->(p)
  DELETE old
}
SET p.authors_as_of = row.as_of
WITH p, row
UNWIND range(0, size(row.authors) - 1) AS i
WITH p, row.authors[i] AS author, i + 1 AS position
MATCH (a:Author {key: author.key})
MERGE (a)-[w:AUTHORED]->(p)
SET w.position = position
