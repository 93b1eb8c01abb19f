// name: similar_runs
// mode: read
// The stored similarity runs: for co_cited and coupled, when the run read the graph, how
// many papers each paper's list keeps (k) and how many relationships it wrote.
MATCH (r:AnalyticsRun)
WHERE r.key IN ['co_cited', 'coupled']
RETURN r.key AS key, r.algorithm AS algorithm, r.property AS property,
       r.parameters AS parameters, r.engine AS engine, r.nodes AS nodes, r.edges AS edges,
       r.snapshot AS snapshot, r.seconds AS seconds, r.computed_at AS computed_at,
       r.k AS k, r.relationships AS relationships
ORDER BY key
