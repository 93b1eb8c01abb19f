// name: papers
// mode: read
// One page of the papers an export writes, in key order: each with its ids, title, year,
// dates, authors in order, primary category, in-graph cited-by count and the analytics
// values written back (pagerank, community) when there are any. Pages follow the key:
// pass the last key of a page as $after to get the next one.
// param after: str  the last key of the previous page ('' for the first)
// param limit: int = 5000  papers per page
// param keys: list[str]  only these papers, or null for every paper
MATCH (p:Paper)
WHERE p.key > $after AND ($keys IS NULL OR p.key IN $keys)
WITH p ORDER BY p.key LIMIT $limit
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       p.published AS published, p.doi AS doi, p.journal_ref AS journal_ref,
       coalesce(p.stub, false) AS stub, p.pagerank AS pagerank, p.community AS community,
       COLLECT {
         MATCH (a:Author)-[w:AUTHORED]->(p) RETURN a.name ORDER BY w.position
       } AS authors,
       COLLECT { MATCH (p)-[:PRIMARY_CATEGORY]->(c:Category) RETURN c.code }[0] AS category,
       COUNT { (p)<-[:CITES]-() } AS cited_by
