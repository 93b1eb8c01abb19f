// name: embedding_state
// mode: read
// Whether the vector index paper_embedding is there and online, and with which dimension:
// a search by meaning needs it (`kg embed` creates it). No row when it is missing.
SHOW VECTOR INDEXES
YIELD name, state, options
WHERE name = 'paper_embedding'
RETURN state, options.indexConfig['vector.dimensions'] AS dimension
