// name: hit_details
// mode: read
// What a list of found papers shows beside each title: its first authors in author order
// (at most $authors), how many authors it has, and its citations in the map. One row per
// key that names a paper, in the order of $keys.
// param keys: list[str]  node keys of the papers, e.g. ['hep-th/9711200']
// param authors: int = 3  how many of each paper's authors to return
UNWIND range(0, size($keys) - 1) AS place
MATCH (p:Paper {key: $keys[place]})
RETURN p.key AS key,
       COLLECT {
         MATCH (a:Author)-[w:AUTHORED]->(p)
         RETURN a.name ORDER BY w.position, a.key LIMIT $authors
       } AS authors,
       COUNT { (:Author)-[:AUTHORED]->(p) } AS author_count,
       COUNT { (p)<-[:CITES]-() } AS cited_by
ORDER BY place
