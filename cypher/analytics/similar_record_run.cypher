// name: similar_record_run
// mode: write
// Record similarity runs as AnalyticsRun nodes keyed co_cited and coupled, as
// record_run does, with k (how many papers each paper's list holds) and
// computed_at set to when the run read the graph, not when it finished writing, and
// papers_with (the papers whose list is not empty), which a run writing nothing reports.
// param runs: list[map]  one per relationship type: key, algorithm, parameters (JSON text), engine, nodes, edges, seconds, k, relationships, papers_with
// param computed_at: str  the server time the run read the graph at (ISO 8601)
OPTIONAL MATCH (s:Snapshot)
WITH max(s.data_date) AS snapshot
UNWIND $runs AS run
MERGE (r:AnalyticsRun {key: run.key})
SET r.algorithm = run.algorithm,
    r.property = run.key,
    r.parameters = run.parameters,
    r.engine = run.engine,
    r.nodes = run.nodes,
    r.edges = run.edges,
    r.snapshot = snapshot,
    r.seconds = run.seconds,
    r.k = run.k,
    r.relationships = run.relationships,
    r.papers_with = run.papers_with,
    r.computed_at = datetime($computed_at)
RETURN r.key AS key, r.algorithm AS algorithm, r.property AS property,
       r.parameters AS parameters, r.engine AS engine, r.nodes AS nodes, r.edges AS edges,
       r.snapshot AS snapshot, r.seconds AS seconds, r.computed_at AS computed_at
