// name: recommend
// mode: read
// Papers related to a set of seed papers by co-citation, coupling and direct links,
// scored Adamic-Adar style: every paper z that links a seed s and a candidate x adds
// 1 / ln(degree of z) (z cites both: co-cited; both cite z: coupled), and a direct citation
// between a seed and the candidate adds 1. Papers linking through z with more than
// $max_degree citations in either direction are left out (their weight is at most
// 1 / ln($max_degree)) and counted in hubs_skipped. One row: hubs_skipped and the results,
// best first, each with its reasons per seed: how many papers cite both (cocited), how many
// both cite (coupled), and whether the seed cites it (cited_by_seed) or it cites the seed.
// param keys: list[str]  node keys of the seed papers
// param limit: int = 20  how many papers to return
// param max_degree: int = 1000  the most citations a linking paper may have
MATCH (s:Paper)
WHERE s.key IN $keys
WITH collect(s) AS seeds
CALL (seeds) {
  UNWIND seeds AS s
  MATCH (s)<-[:CITES]-(z:Paper)
  WITH s, z, COUNT { (z)-[:CITES]-() } AS degree
  WHERE degree <= $max_degree
  MATCH (z)-[:CITES]->(x:Paper)
  WHERE NOT x IN seeds
  RETURN s, x, 'cocited' AS kind, 1.0 / log(degree) AS weight
  UNION ALL
  UNWIND seeds AS s
  MATCH (s)-[:CITES]->(z:Paper)
  WITH s, z, COUNT { (z)-[:CITES]-() } AS degree
  WHERE degree <= $max_degree
  MATCH (z)<-[:CITES]-(x:Paper)
  WHERE NOT x IN seeds
  RETURN s, x, 'coupled' AS kind, 1.0 / log(degree) AS weight
  UNION ALL
  UNWIND seeds AS s
  MATCH (s)-[:CITES]->(x:Paper)
  WHERE NOT x IN seeds
  RETURN s, x, 'cited_by_seed' AS kind, 1.0 AS weight
  UNION ALL
  UNWIND seeds AS s
  MATCH (s)<-[:CITES]-(x:Paper)
  WHERE NOT x IN seeds
  RETURN s, x, 'cites_seed' AS kind, 1.0 AS weight
}
WITH seeds, x, s, kind, count(*) AS n, sum(weight) AS w
WITH seeds, x, s,
     sum(CASE kind WHEN 'cocited' THEN n ELSE 0 END) AS cocited,
     sum(CASE kind WHEN 'coupled' THEN n ELSE 0 END) AS coupled,
     sum(CASE kind WHEN 'cited_by_seed' THEN n ELSE 0 END) > 0 AS cited_by_seed,
     sum(CASE kind WHEN 'cites_seed' THEN n ELSE 0 END) > 0 AS cites_seed,
     sum(w) AS score
WITH seeds, x, sum(score) AS score,
     collect({seed: s.key, cocited: cocited, coupled: coupled, cited_by_seed: cited_by_seed,
              cites_seed: cites_seed, score: score}) AS reasons
ORDER BY score DESC, x.key
LIMIT $limit
WITH seeds, collect({key: x.key, arxiv_id: x.arxiv_id, title: x.title, year: x.year,
                     stub: coalesce(x.stub, false), score: score, reasons: reasons}) AS results
CALL (seeds) {
  UNWIND seeds AS s
  MATCH (s)-[:CITES]-(z:Paper)
  WHERE COUNT { (z)-[:CITES]-() } > $max_degree
  RETURN count(*) AS hubs_skipped
}
RETURN hubs_skipped, results
