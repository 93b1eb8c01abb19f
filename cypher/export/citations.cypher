// name: citations
// mode: read
// One page of the citations an export writes: the CITES relationships of the next $limit
// citing papers in key order, both ends inside the export. Pass the last citing key of a
// page as $after to get the next one; a page without rows has no more citing papers.
// param after: str  the last citing key of the previous page ('' for the first)
// param limit: int = 2000  citing papers per page
// param keys: list[str]  only citations between these papers, or null for every paper
MATCH (a:Paper)
WHERE a.key > $after AND ($keys IS NULL OR a.key IN $keys)
WITH a ORDER BY a.key LIMIT $limit
OPTIONAL MATCH (a)-[:CITES]->(b:Paper)
WHERE $keys IS NULL OR b.key IN $keys
WITH a, b ORDER BY b.key
RETURN a.key AS citing, collect(b.key) AS cited
ORDER BY citing
