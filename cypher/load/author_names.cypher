// name: author_names
// mode: write
// Every author a record names exists, keyed by the normalised full name, with the
// smallest spelling of the name seen, whatever the order of loading. An author that
// already has this spelling or a smaller one is not written.
// One row per author: the plan reads every row's stored name before it writes any (an
// Eager), so the writer sends each author's smallest spelling only
// (kg.load.neo4j_sink.smallest_spellings).
// param rows: list[map]  one map per author, its smallest spelling: key, name
UNWIND $rows AS author
MERGE (a:Author {key: author.key})
ON CREATE SET a.name = author.name
WITH a, author
WHERE author.name < a.name
SET a.name = author.name
