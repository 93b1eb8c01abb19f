// name: vector_row_papers
// mode: read
// Which paper of the map each row of a vector file names (`kg embed --from FILE`): by its
// arXiv id, by a strong id the paper holds (its PaperId: a DOI, an OpenAlex or Semantic
// Scholar id, a corpus id), or by its node key. One row out per row in; key is null when
// no paper of the map has that id (a dump covers far more papers than a map).
// param rows: list[map]  {row: int, arxiv_id: str or null, id_key: str or null ('corpus:14636783'), key: str or null}
UNWIND $rows AS row
OPTIONAL MATCH (a:Paper {arxiv_id: row.arxiv_id})
OPTIONAL MATCH (d:Paper {key: row.arxiv_id})
OPTIONAL MATCH (:PaperId {key: row.id_key})-[:IDENTIFIES]->(b:Paper)
OPTIONAL MATCH (c:Paper {key: row.key})
WITH row.row AS row, coalesce(a, d, b, c) AS p
RETURN row, min(p.key) AS key
ORDER BY row
