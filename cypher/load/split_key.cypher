// name: split_key
// mode: write
// Take one title key back out of the paper that absorbed it, when the identity rule says it
// belongs to another paper (kg.loaders.identity.title_splits), or when the paper is taken
// apart (a key with a record of its own, `recorded`: restore_folded.cypher writes that record
// back): every trace of it the paper keeps per key. The
// paper drops the key from `aliases` and `key_refs`, each count a page stated under it
// (DESCRIBED_IN `named`), each citation whose source named it (CITES `named`, an edge left
// with none is deleted) and each citation between it and another of the paper's keys
// (`self_cites`); when the key's reference gave the paper its title and year, those go
// (a title it held stays an ALSO_TITLED title) and the best remaining reference (`best`)
// must be written again. Returns what the loader writes back under the key, as a stub of
// its own (kg.load.neo4j_sink.split_rows): its best reference (`entry`), the counts it
// was stated with (`described`), the citations that named it (`cites`) and those between
// it and the paper (`selves`), each with its snapshot's data date (a citation's date is
// its snapshot's: map pages state one, edge lists none).
// param key: str  node key of the paper that holds the alias
// param alias: str  the title key to take out
MATCH (h:Paper {key: $key})
// A key with no best reference kept (a graph loaded before kg 0.4.0) cannot be written back,
// but for one with a record of its own, which restore_folded.cypher writes back
WHERE $alias IN coalesce(h.aliases, [])
  AND (any(e IN coalesce(h.key_refs, []) WHERE e STARTS WITH $alias + '|') OR $alias IN coalesce(h.recorded, []))
// The paper's write lock before it is read (setting a label it has writes nothing)
SET h:Paper
WITH h, $alias AS k
CALL (h, k) {
  MATCH (h)-[d:DESCRIBED_IN]->(s:Snapshot)
  WHERE any(e IN coalesce(d.named, []) WHERE e STARTS WITH k + '|')
  WITH h, d, s, [e IN d.named WHERE NOT e STARTS WITH k + '|'] AS rest,
       head([e IN d.named WHERE e STARTS WITH k + '|' | split(e, '|')]) AS mine
  WITH h, d, s, rest, mine,
       reduce(top = '', e IN rest | CASE WHEN split(e, '|')[2] > top THEN split(e, '|')[2] ELSE top END) AS newest
  // What the link states without the key: a record's counts as they were, else the largest
  // count and the newest date of the keys left (stubs.cypher); with none left, no link
  CALL (h, d, rest, newest) {
    WITH h, d, rest, newest WHERE d.line IS NOT NULL OR rest <> []
    SET d.named = CASE WHEN rest = [] OR d.line IS NULL AND all(e IN rest WHERE e STARTS WITH h.key + '|')
          THEN null ELSE rest END,
        d.stated_cited_by = CASE WHEN d.line IS NOT NULL THEN d.stated_cited_by
          ELSE reduce(top = null, e IN rest | CASE WHEN top IS NULL OR toInteger(split(e, '|')[1]) > top
                                                 THEN toInteger(split(e, '|')[1]) ELSE top END) END,
        d.as_of = CASE WHEN d.line IS NOT NULL THEN d.as_of
          WHEN newest = '' THEN null ELSE date(newest) END
  }
  CALL (d, rest) {
    WITH d, rest WHERE d.line IS NULL AND rest = []
    DELETE d
  }
  RETURN collect({snapshot: s.key, count: toInteger(mine[1]),
                  as_of: CASE WHEN mine[2] = '' THEN null ELSE date(mine[2]) END}) AS described
}
CALL (h, k) {
  MATCH (h)-[r:CITES]-(o:Paper)
  WHERE r.named IS NOT NULL
  // The edge's write lock before it is read: a loader writing a citation by arXiv id holds
  // no title lock (as in merge_papers.cypher)
  SET r.snapshots = r.snapshots
  WITH h, k, r, o, CASE WHEN startNode(r) = h THEN 1 ELSE 2 END AS side
  WITH h, r, o, side, [e IN r.named WHERE split(e, '|')[side] = k] AS moved,
       [e IN r.named WHERE split(e, '|')[side] <> k] AS rest,
       CASE WHEN side = 1 THEN '|' + h.key + '|' + o.key ELSE '|' + o.key + '|' + h.key END AS own
  WHERE moved <> []
  // The edge keeps the snapshots, names and dates of the citations left (citations.cypher)
  CALL (h, r, o, rest, own) {
    WITH h, r, o, rest, own, COLLECT {
           UNWIND rest AS e WITH DISTINCT split(e, '|')[0] AS key RETURN key ORDER BY key
         } AS snapshots
    WHERE rest <> []
    SET r.snapshots = snapshots,
        r.named = CASE WHEN all(e IN rest WHERE e ENDS WITH own) THEN null ELSE rest END,
        r.first_seen = COLLECT {
          MATCH (x:Snapshot) WHERE x.key IN snapshots AND x.data_date IS NOT NULL
          RETURN x.data_date ORDER BY x.data_date LIMIT 1
        }[0],
        r.last_seen = COLLECT {
          MATCH (x:Snapshot) WHERE x.key IN snapshots AND x.data_date IS NOT NULL
          RETURN x.data_date ORDER BY x.data_date DESC LIMIT 1
        }[0]
  }
  CALL (r, rest) {
    WITH r, rest WHERE rest = []
    DELETE r
  }
  SET o.changed_at = datetime.transaction()
  WITH o, side, moved
  UNWIND moved AS e
  MATCH (x:Snapshot {key: split(e, '|')[0]})
  RETURN collect({entry: e, other: o.key, outgoing: side = 1, as_of: x.data_date}) AS cites
}
WITH h, k, described, cites,
     [e IN coalesce(h.self_cites, []) WHERE k IN split(e, '|')[1..]] AS mine,
     [e IN coalesce(h.self_cites, []) WHERE NOT k IN split(e, '|')[1..]] AS others,
     [a IN h.aliases WHERE a <> k] AS aliases,
     [e IN coalesce(h.key_refs, []) WHERE NOT e STARTS WITH k + '|'] AS refs,
     head([e IN coalesce(h.key_refs, []) WHERE e STARTS WITH k + '|']) AS entry
// The key's reference gave the paper its title and year (ref_as_of is the best one)
WITH h, k, described, cites, mine, others, aliases, refs, entry,
     entry IS NOT NULL AND h.ref_as_of = substring(entry, size(k) + 1) AS respell
CALL (h, respell) {
  WITH h WHERE respell AND h.norm_title IS NOT NULL
    AND (h.stub OR 'norm_title=' IN coalesce(h.filled_as_of, []))
  MERGE (h)-[:ALSO_TITLED {norm_title: h.norm_title}]->(h)
}
WITH h, k, described, cites, mine, others, aliases, refs, entry, respell,
     [f IN coalesce(h.filled_as_of, []) WHERE NOT f IN ['title=', 'norm_title=', 'year=']] AS filled
SET h.aliases = CASE WHEN aliases = [] THEN null ELSE aliases END,
    h.key_refs = CASE WHEN aliases = [] OR refs = [] THEN null ELSE refs END,
    h.self_cites = CASE WHEN others = [] THEN null ELSE others END,
    h.ref_as_of = CASE WHEN respell THEN null ELSE h.ref_as_of END,
    h.title = CASE WHEN respell AND (h.stub OR 'title=' IN coalesce(h.filled_as_of, [])) THEN null ELSE h.title END,
    h.norm_title = CASE WHEN respell AND (h.stub OR 'norm_title=' IN coalesce(h.filled_as_of, [])) THEN null ELSE h.norm_title END,
    h.year = CASE WHEN respell AND (h.stub OR 'year=' IN coalesce(h.filled_as_of, [])) THEN null ELSE h.year END,
    h.filled_as_of = CASE WHEN NOT respell THEN h.filled_as_of WHEN filled = [] THEN null ELSE filled END,
    h.changed_at = datetime.transaction()
RETURN entry, described, cites,
       COLLECT {
         UNWIND mine AS e
         MATCH (x:Snapshot {key: split(e, '|')[0]})
         RETURN {entry: e, as_of: x.data_date} AS self ORDER BY self.entry
       } AS selves,
       CASE WHEN respell THEN reduce(best = null, e IN refs |
         CASE WHEN best IS NULL
                OR substring(e, size(split(e, '|')[0]) + 1) > substring(best, size(split(best, '|')[0]) + 1)
              THEN e ELSE best END) END AS best
