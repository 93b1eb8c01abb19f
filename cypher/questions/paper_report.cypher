// name: paper_report
// mode: read
// One paper as its map page shows it, rebuilt from the graph: identity, dates, categories,
// authors in order, abstract, and both sides of every count. cited_by_in_map and
// builds_on count CITES edges in the graph; the stated_* values are what the newest source
// stated (a stub's cited-by count sits on the DESCRIBED_IN link of the page that lists it,
// so the newest such link wins over the paper's own). data_through is the newest data_date of the snapshots that describe the paper.
// citers_per_year counts the citing papers in the graph by year; stated_histogram is the
// histogram on the newest DESCRIBED_IN link that has one.
// aliases are the other keys the paper was known by before references to it merged;
// id_keys its strong ids besides arXiv's (PaperId: 'doi:10.1145/…', 'openalex:W…').
// param key: str  node key of the paper, e.g. '2110.03888'
MATCH (p:Paper {key: $key})
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       p.published AS published, coalesce(p.stub, false) AS stub,
       p.abstract AS abstract, p.abstract_excerpt AS abstract_excerpt,
       coalesce(p.aliases, []) AS aliases,
       COLLECT { MATCH (i:PaperId)-[:IDENTIFIES]->(p) RETURN i.key ORDER BY i.key } AS id_keys,
       p.version AS version, p.license AS license, p.doi AS doi,
       p.journal_ref AS journal_ref, p.comments AS comments,
       COLLECT {
         MATCH (p)-[:PRIMARY_CATEGORY]->(c:Category)
         RETURN c {.code, .name}
       }[0] AS primary_category,
       COLLECT {
         MATCH (p)-[:CROSS_LISTED]->(c:Category)
         RETURN c {.code, .name} ORDER BY c.code
       } AS cross_listed,
       COLLECT {
         MATCH (a:Author)-[w:AUTHORED]->(p)
         RETURN a {.key, .name, position: w.position} ORDER BY w.position
       } AS authors,
       COUNT { (p)<-[:CITES]-() } AS cited_by_in_map,
       p.stated_cited_by_in_map AS stated_cited_by_in_map,
       coalesce(COLLECT {
         MATCH (p)-[d:DESCRIBED_IN]->(s:Snapshot)
         WHERE d.stated_cited_by IS NOT NULL
         RETURN d.stated_cited_by ORDER BY d.as_of IS NULL, d.as_of DESC, s.data_date DESC LIMIT 1
       }[0], p.stated_cited_by) AS stated_cited_by,
       COUNT { (p)-[:CITES]->() } AS builds_on,
       p.stated_refs_in_map AS stated_refs_in_map,
       p.stated_refs_total AS stated_refs_total,
       COLLECT {
         MATCH (p)-[:DESCRIBED_IN]->(s:Snapshot)
         WHERE s.data_date IS NOT NULL
         RETURN s.data_date ORDER BY s.data_date DESC LIMIT 1
       }[0] AS data_through,
       COLLECT {
         MATCH (c:Paper)-[:CITES]->(p)
         WITH c.year AS year, count(*) AS papers
         RETURN {year: year, count: papers} ORDER BY year
       } AS citers_per_year,
       COLLECT {
         MATCH (p)-[d:DESCRIBED_IN]->(s:Snapshot)
         WHERE d.histogram_years IS NOT NULL
         RETURN {years: d.histogram_years, counts: d.histogram_counts}
         ORDER BY d.as_of IS NULL, d.as_of DESC, s.data_date DESC
         LIMIT 1
       }[0] AS stated_histogram
