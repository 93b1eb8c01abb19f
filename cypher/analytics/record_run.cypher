// name: record_run
// mode: write
// Record analysis runs as AnalyticsRun nodes keyed by the property they wrote, so running
// again replaces the record. Each run notes the newest data date among the snapshots.
// param runs: list[map]  one map per written property: key (the property), algorithm, parameters (JSON text), engine, nodes, edges, seconds
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
    r.computed_at = datetime()
RETURN r.key AS key, r.algorithm AS algorithm, r.property AS property,
       r.parameters AS parameters, r.engine AS engine, r.nodes AS nodes, r.edges AS edges,
       r.snapshot AS snapshot, r.seconds AS seconds, r.computed_at AS computed_at
