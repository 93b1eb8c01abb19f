// name: drop_vector_index
// mode: write
// Drop the vector index of the papers' text embeddings, when there is one (`kg embed
// --from FILE --replace`, before vectors of another dimension load).
DROP INDEX paper_embedding IF EXISTS
