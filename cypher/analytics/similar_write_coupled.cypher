// name: similar_write_coupled
// mode: write
// Replace the stored coupling lists of a batch of papers, named by element id: each
// paper's COUPLED relationships are deleted and its top-k written anew, one relationship
// to each listed paper carrying together, size_a, size_b, cosine, jaccard and rank
// (1 = most coupled). A row with an empty list only deletes.
// param rows: list[map]  one per paper: id (its element id), similar (a list of maps: id, together, size_a, size_b, cosine, jaccard, rank)
UNWIND $rows AS row
MATCH (a:Paper)
WHERE elementId(a) = row.id
CALL (a) {
  MATCH (a)-[old:COUPLED]->()
  DELETE old
}
WITH a, row
UNWIND row.similar AS s
MATCH (b:Paper)
WHERE elementId(b) = s.id
CREATE (a)-[:COUPLED {together: s.together, size_a: s.size_a, size_b: s.size_b,
                      cosine: s.cosine, jaccard: s.jaccard, rank: s.rank}]->(b)
