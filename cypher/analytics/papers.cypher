// name: papers
// mode: read
// Title, year and stub flag of the papers an analysis lists (its top papers), by key.
// param keys: list[str]  node keys of the papers
UNWIND $keys AS key
MATCH (p:Paper {key: key})
RETURN p.key AS key, p.title AS title, p.year AS year, coalesce(p.stub, false) AS stub
