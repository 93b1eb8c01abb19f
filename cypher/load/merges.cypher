// name: merges
// mode: read
// The merge records: every paper that absorbed other keys (its aliases), with what the
// identity rule (kg.loaders.identity.title_merges) saw, so that a wrong merge can be found and
// explained, the snapshots that name the merged paper, and which key each citation of it
// came under (CITES `named`, 'snapshot|citing|cited', with the paper at the other end and
// whether the paper is the citing one), and the best reference of each key (`key_refs`,
// 'key|data date|snapshot|title|year'), and the title keys with a record of their own
// (`recorded`: a page's own key). With $key, that paper only. $also adds papers that
// absorbed nothing (those sharing a contested strong id, contested_ids.cypher).
// param key: str = null  node key of one paper; null for all
// param limit: int = 100  how many merged papers to return; null for all
// param also: list[str] = []  keys of further papers to return, merged or not
MATCH (p:Paper)
WHERE (size(coalesce(p.aliases, [])) > 0 OR p.key IN $also) AND ($key IS NULL OR p.key = $key)
WITH p ORDER BY p.key LIMIT coalesce($limit, 1000000000)
RETURN p.key AS key, p.arxiv_id AS arxiv_id, p.title AS title, p.year AS year,
       p.norm_title AS norm_title, p.aliases AS aliases, p.key_refs AS key_refs,
       p.recorded AS recorded,
       COLLECT {
         MATCH (p)-[:DESCRIBED_IN]->(s:Snapshot)
         RETURN DISTINCT s.key AS k ORDER BY k
       } AS described_in,
       COLLECT {
         MATCH (p)-[r:CITES]-()
         UNWIND r.snapshots AS k
         RETURN DISTINCT k ORDER BY k
       } AS cited_in,
       COLLECT {
         MATCH (p)-[r:CITES]-(o) WHERE r.named IS NOT NULL
         UNWIND r.named AS k
         RETURN {entry: k, other: o.key, outgoing: startNode(r) = p} AS named
         ORDER BY named.entry, named.other
       } AS named
