// name: connect_subgraph
// mode: read
// The citations among a set of papers (the seeds and the papers on the paths between
// them), which the connector ranks by PageRank.
// param keys: list[str]  node keys of the papers
MATCH (a:Paper)-[:CITES]->(b:Paper)
WHERE a.key IN $keys AND b.key IN $keys
RETURN a.key AS citing, b.key AS cited
ORDER BY citing, cited
