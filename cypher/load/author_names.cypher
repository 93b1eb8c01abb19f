// name: author_names
// mode: write
// Every author a record names exists, keyed by the normalised full name, with the
// smallest spelling of the name seen, whatever the order of loading. An author that
// already has this spelling or a smaller one is not written.
// This statement is the rule's one definition: the writer sends every spelling it read.
// The plan reads every row's stored name before it writes any (an Eager), so with several
// spellings of one author in $rows the filter alone would let the last one win; the SET
// compares again, and the smallest wins.
// param rows: list[map]  one map per spelling (several per author allowed): key, name
UNWIND $rows AS author
MERGE (a:Author {key: author.key})
ON CREATE SET a.name = author.name
WITH a, author
WHERE author.name < a.name
// compared again as it is written: the filter above read the name before any row wrote it
SET a.name = CASE WHEN author.name < a.name THEN author.name ELSE a.name END
