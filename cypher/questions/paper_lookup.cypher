// name: paper_lookup
// mode: read
// Candidate papers for a paper reference, in the order they are tried: tier 1 matches the
// node key, tier 2 the canonical arXiv id or a strong id the paper holds (a DOI, an OpenAlex
// or Semantic Scholar id: its PaperId, when $key is such an id key), tier 3 the normalised title a paper holds, tier 4
// one it is also known by (ALSO_TITLED: another version's title, say), tier 5 a key prefix
// and suffix (a handle that a list cut short with an ellipsis, a title key's year after
// it), tier 6 a key the paper holds in its aliases (a key merged into it, which `kg paper`
// shows as "also known as"), whole or as a prefix and suffix. The caller takes the first
// tier that matched; several papers in that tier make the reference ambiguous.
// param key: str  the reference as typed (a node key such as 'title:attention is all you need:2017'), or the id key of a strong id in any spelling ('doi:10.1145/…' for 'https://doi.org/10.1145/…')
// param arxiv_id: str  canonical arXiv id of the reference, or null when it is not one
// param norm_title: str  normalised title of the reference (kg.loaders.identity.normalize_title)
// param key_prefix: str  what a handle cut short has before its ellipsis, or null when it has none
// param key_suffix: str  what it has after (a title key's ':year'), or '' when nothing
CALL () {
  MATCH (p:Paper {key: $key})
  RETURN p, 1 AS tier
  UNION
  MATCH (p:Paper {arxiv_id: $arxiv_id})
  RETURN p, 2 AS tier
  UNION
  MATCH (:PaperId {key: $key})-[:IDENTIFIES]->(p:Paper)
  RETURN p, 2 AS tier
  UNION
  MATCH (p:Paper {norm_title: $norm_title})
  RETURN p, 3 AS tier
  UNION
  MATCH (p:Paper)-[t:ALSO_TITLED]->(p) WHERE t.norm_title = $norm_title
  RETURN p, 4 AS tier
  UNION
  MATCH (p:Paper)
  WHERE $key_prefix IS NOT NULL AND p.key STARTS WITH $key_prefix AND p.key ENDS WITH $key_suffix
  RETURN p, 5 AS tier
  UNION
  // Aliases are node keys: an arXiv id (tier 2 finds those) or a key with a colon (a title
  // key, a strong id's key). Only such a reference, or a handle cut short, can name one, and
  // only then are the papers read (a scan: a reference of plain words reads none).
  WITH 1 AS aliased
  WHERE $arxiv_id IS NULL AND ($key CONTAINS ':' OR $key_prefix IS NOT NULL)
  MATCH (p:Paper)
  WHERE p.aliases IS NOT NULL
    AND any(alias IN p.aliases
            WHERE alias = $key
               OR ($key_prefix IS NOT NULL AND alias STARTS WITH $key_prefix
                   AND alias ENDS WITH $key_suffix))
  RETURN p, 6 AS tier
}
RETURN tier, p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       coalesce(p.stub, false) AS stub
ORDER BY tier, year, key
