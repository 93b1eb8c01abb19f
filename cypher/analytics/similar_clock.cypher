// name: similar_clock
// mode: read
// The server's clock, read by a similarity run before it reads the graph: the run's
// computed_at, which loads' Paper.changed_at stamps are compared with.
RETURN toString(datetime()) AS now
