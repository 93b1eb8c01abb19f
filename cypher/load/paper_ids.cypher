// name: paper_ids
// mode: write
// The strong ids a record or a reference states for a paper besides its arXiv id (DOI,
// OpenAlex, Semantic Scholar paperId and corpus id, MAG, PubMed; loaders.ids): each one a
// (:PaperId {key: '<kind>:<value>'}) node that IDENTIFIES the paper. A paper keeps every id
// any record gave it. Two papers an id identifies are one paper, and the loader's reconcile
// merges them (paper_id_papers.cypher), but for two arXiv papers, which stay two.
// param rows: list[map]  one map per paper: key, ids (id keys, sorted)
UNWIND $rows AS row
MATCH (p:Paper {key: row.key})
UNWIND row.ids AS id
MERGE (i:PaperId {key: id})
ON CREATE SET i.kind = split(id, ':')[0], i.value = substring(id, size(split(id, ':')[0]) + 1)
MERGE (i)-[:IDENTIFIES]->(p)
