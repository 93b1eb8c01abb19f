// name: runs
// mode: read
// The analysis runs whose results are stored on Paper nodes: which property each wrote,
// with which algorithm, parameters and engine, on how large a graph, and when.
MATCH (r:AnalyticsRun)
RETURN r.key AS key, r.algorithm AS algorithm, r.property AS property,
       r.parameters AS parameters, r.engine AS engine, r.nodes AS nodes, r.edges AS edges,
       r.snapshot AS snapshot, r.seconds AS seconds, r.computed_at AS computed_at
ORDER BY key
