// name: similar_write_cocited
// mode: write
// Replace the stored co-citation lists of a batch of papers, named by key: each
// paper's CO_CITED relationships are deleted and its top-k written anew, one relationship
// to each listed paper carrying together, size_a, size_b, cosine, jaccard and rank
// (1 = most co-cited). A row with an empty list only deletes.
// param rows: list[map]  one per paper: key, similar (a list of maps: key, together, size_a, size_b, cosine, jaccard, rank)
UNWIND $rows AS row
MATCH (a:Paper {key: row.key})
CALL (a) {
  MATCH (a)-[old:CO_CITED]->()
  DELETE old
}
WITH a, row
UNWIND row.similar AS s
MATCH (b:Paper {key: s.key})
CREATE (a)-[:CO_CITED {together: s.together, size_a: s.size_a, size_b: s.size_b,
                       cosine: s.cosine, jaccard: s.jaccard, rank: s.rank}]->(b)
