// name: author_names
// mode: write
// Every author a record names exists, keyed by the normalised full name, with the
// smallest spelling of the name seen, whatever the order of loading. An author that
// already has this spelling or a smaller one is not written.
// param rows: list[map]  one map per spelling: key, name
UNWIND $rows AS author
MERGE (a:Author {key: author.key})
ON CREATE SET a.name = author.name
WITH a, author
WHERE author.name < a.name
SET a.name = author.name
