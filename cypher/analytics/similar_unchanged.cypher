// name: similar_unchanged
// mode: read
// Whether the stored similarity runs $runs still hold exactly what a new run with these
// $parameters (k and the lists' order) would write: each run is recorded with them (and
// with its counts), and
// no paper has been stamped by a load (Paper.changed_at) at or after the oldest run's read
// of the graph: one seek of the paper_changed_at index. Loads stamp every paper whose
// citations, citers or size they change, so an unchanged graph gives unchanged lists (the
// rule similar_answer.cypher answers questions by). A stamp equal to the read counts as a
// change. The relationships stored must still number what each run wrote (two reads of the
// count store), so lists deleted by hand are written again. Returns the runs' recorded
// counts for the answer of a run that writes nothing.
// param runs: list[str]  the run keys, co_cited and coupled
// param parameters: str  the new run's parameters as it records them (JSON text: k, order)
OPTIONAL MATCH (r:AnalyticsRun) WHERE r.key IN $runs
WITH collect(r) AS recorded
WITH recorded,
     reduce(oldest = null, r IN recorded |
       CASE WHEN oldest IS NULL OR r.computed_at < oldest THEN r.computed_at ELSE oldest END
     ) AS since
OPTIONAL CALL (since) {
  MATCH (q:Paper) WHERE q.changed_at >= since
  RETURN true AS any_changed
  LIMIT 1
}
CALL () { MATCH ()-[s:CO_CITED]->() RETURN count(s) AS co_cited }
CALL () { MATCH ()-[s:COUPLED]->() RETURN count(s) AS coupled }
RETURN size(recorded) = size($runs) AND since IS NOT NULL AND any_changed IS NULL
       AND all(r IN recorded WHERE r.parameters = $parameters AND r.papers_with IS NOT NULL
               AND r.relationships = CASE r.key WHEN 'co_cited' THEN co_cited ELSE coupled END)
       AS unchanged,
       [r IN recorded | r {.key, .nodes, .edges, .relationships, .papers_with,
                           computed_at: toString(r.computed_at)}] AS recorded
