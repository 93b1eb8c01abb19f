// name: await_vector_index
// mode: read
// Wait until the vector index paper_embedding is online (`kg embed` creates it, and an
// index being populated answers nothing yet), at most $seconds.
// param seconds: int = 300  how long to wait at most
CALL db.awaitIndex('paper_embedding', $seconds)
