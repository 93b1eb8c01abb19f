// name: gds_keys
// mode: read
// The Paper keys of the node ids a GDS algorithm streamed back. Needs the Graph Data
// Science plugin.
// param ids: list[int]  node ids from a gds.*.stream call
UNWIND $ids AS id
RETURN id, gds.util.asNode(id).key AS key
