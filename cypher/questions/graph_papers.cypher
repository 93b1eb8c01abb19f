// name: graph_papers
// mode: read
// The papers with these node keys as the graph view draws them: ids, title, year, whether
// each is a stub, and the papers in the graph citing it (cited_by), in key order. A key
// no paper holds is left out.
// param keys: list[str]  node keys of the papers to draw
UNWIND $keys AS key
MATCH (p:Paper {key: key})
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub, COUNT { (p)<-[:CITES]-() } AS cited_by
ORDER BY key
