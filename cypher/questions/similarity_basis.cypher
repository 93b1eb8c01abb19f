// name: similarity_basis
// mode: read
// Why a paper has no co-cited or coupled papers: how many papers cite it, how many of those
// cite another paper too, how many papers it cites, and how many of those another paper
// cites too. Co-citation needs the second count above zero, coupling the fourth.
// param key: str  node key of the paper
MATCH (p:Paper {key: $key})
RETURN COUNT { (p)<-[:CITES]-() } AS citers,
       COUNT {
         MATCH (c:Paper)-[:CITES]->(p)
         WHERE EXISTS { MATCH (c)-[:CITES]->(o:Paper) WHERE o <> p }
       } AS citers_citing_others,
       COUNT { (p)-[:CITES]->() } AS references,
       COUNT {
         MATCH (p)-[:CITES]->(r:Paper)
         WHERE EXISTS { MATCH (o:Paper)-[:CITES]->(r) WHERE o <> p }
       } AS references_cited_by_others
