// name: paper_titles
// mode: read
// Every normalised title of these papers: the one each holds and its ALSO_TITLED ones. A
// paper that gained a year or merged is reconciled again under each of them, since the new
// year may chain it to papers that share another of its titles.
// param keys: list[str]  paper keys
UNWIND $keys AS key
MATCH (p:Paper {key: key})
WHERE p.norm_title IS NOT NULL
RETURN p.norm_title AS norm_title
UNION
UNWIND $keys AS key
MATCH (p:Paper {key: key})-[v:ALSO_TITLED]->(p)
RETURN v.norm_title AS norm_title
