// name: id_holders
// mode: read
// The paper that now holds each id key merged away before (a reference by DOI or OpenAlex
// id to a paper that merged into another, say its arXiv paper): for a key with no paper of
// its own, the papers its PaperId identifies. The loader writes such references straight
// to that paper (the smallest key among several), which gives the graph a merge would give.
// param keys: list[str]  id keys, ascending
UNWIND $keys AS key
OPTIONAL MATCH (own:Paper {key: key})
WITH key, own WHERE own IS NULL
MATCH (:PaperId {key: key})-[:IDENTIFIES]->(p:Paper)
RETURN key, p.key AS holder
