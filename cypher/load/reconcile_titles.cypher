// name: reconcile_titles
// mode: read
// Every paper with one of these normalised titles, as the title it holds or as one of its
// other titles (ALSO_TITLED), with what the identity rule
// (kg.loaders.identity.title_merges, title_splits) needs: its key, arXiv id, year, every
// year stated for it, the keys merged into it and those with records of their own.
// param norm_titles: list[str]  normalised titles (kg.loaders.identity.normalize_title)
UNWIND $norm_titles AS norm_title
CALL (norm_title) {
  MATCH (p:Paper {norm_title: norm_title})
  RETURN p
  UNION
  MATCH (p:Paper)-[v:ALSO_TITLED]->(p) WHERE v.norm_title = norm_title
  RETURN p
}
RETURN norm_title, p.key AS key, p.arxiv_id AS arxiv_id, p.year AS year, p.years AS years,
       p.aliases AS aliases, p.recorded AS recorded
