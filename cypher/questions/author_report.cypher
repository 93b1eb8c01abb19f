// name: author_report
// mode: read
// One author: their papers (newest first, then the most cited in the map, with their author
// position and both cited-by counts), their co-authors with how many papers they share, and
// citation totals within the map: incoming CITES summed over the papers, distinct citing papers, and the stated
// cited-by-in-map counts summed (null when no source states one); the spellings of the
// name its sources gave, and its strong ids (an author a source gives ids for is keyed by
// them). An author known by name alone may be the same person as another spelling: `also` lists
// the authors with the same surname (last word) and first initial, most papers first.
// papers is the page of the list $offset and $limit ask for (paper_count counts them all).
// param key: str  author key, the normalised name, e.g. 'ang wang'
// param offset: int = 0  how many of the author's papers to skip
// param limit: int = null  how many of the author's papers to return; null for all
MATCH (a:Author {key: $key})
WITH a, COLLECT {
  MATCH (a)-[w:AUTHORED]->(p:Paper)
  WITH p, w, COUNT { (p)<-[:CITES]-() } AS graph_cited_by
  RETURN p {.key, .arxiv_id, .title, .year, stub: coalesce(p.stub, false),
            position: w.position,
            stated_cited_by: p.stated_cited_by,
            stated_cited_by_in_map: p.stated_cited_by_in_map,
            graph_cited_by: graph_cited_by}
  ORDER BY p.year DESC, graph_cited_by DESC, p.key
} AS papers
RETURN a.key AS key, a.name AS name,
       papers[$offset..][..coalesce($limit, size(papers))] AS papers,
       size(papers) AS paper_count,
       coalesce(a.names, [a.name]) AS spellings,
       COLLECT { MATCH (i:AuthorId)-[:IDENTIFIES]->(a) RETURN i.key ORDER BY i.key } AS ids,
       COLLECT {
         MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(c:Author)
         WHERE c <> a
         WITH c, count(*) AS shared
         RETURN {key: c.key, name: c.name, papers: shared}
         ORDER BY shared DESC, c.key
       } AS coauthors,
       COUNT { (a)-[:AUTHORED]->(:Paper)<-[:CITES]-(:Paper) } AS citations_in_map,
       COUNT {
         MATCH (a)-[:AUTHORED]->(:Paper)<-[:CITES]-(c:Paper)
         RETURN DISTINCT c
       } AS distinct_citers,
       CASE WHEN any(p IN papers WHERE p.stated_cited_by_in_map IS NOT NULL)
         THEN reduce(total = 0, p IN papers | total + coalesce(p.stated_cited_by_in_map, 0))
       END AS stated_cited_by_in_map,
       COLLECT {
         WITH a, split(a.key, ' ') AS words
         WITH a, words, ' ' + last(words) AS surname, left(a.key, 1) AS initial
         WHERE size(words) > 1
         // STARTS WITH seeks the key's index (a scan of every author took 5 times as long)
         MATCH (o:Author)
         WHERE o.key STARTS WITH initial AND o.key ENDS WITH surname AND o <> a
         WITH o, COUNT { (o)-[:AUTHORED]->(:Paper) } AS wrote
         RETURN {key: o.key, name: o.name, papers: wrote}
         ORDER BY wrote DESC, o.key
         LIMIT 10
       } AS also
