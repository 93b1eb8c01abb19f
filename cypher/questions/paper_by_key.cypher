// name: paper_by_key
// mode: read
// The paper whose node key (a canonical arXiv id, or title:<normalised title>:<year>)
// is $key, with its title, year and whether it is a stub known only from reference lists.
// param key: str  node key, e.g. '2110.03888'
MATCH (p:Paper {key: $key})
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year, p.stub AS stub
