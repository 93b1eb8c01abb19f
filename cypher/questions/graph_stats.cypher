// name: graph_stats
// mode: read
// How many nodes carry each label and how many relationships have each type: every label
// and type in the database (db.labels(), db.relationshipTypes()), the model's, its
// bookkeeping's, the analytics' (PageRankTop1, CO_CITED, ...) and any other. nodes and
// relationships are lists of {name, count}: the labels and types the project writes first,
// in a fixed order, each a literal pattern that Neo4j answers from its count store at once
// on any size of graph; then any other label or type by name, counted by a scan (a pattern
// with a dynamic label or type is not answered from the count store). A label or type with
// no node or relationship left is listed with count 0.
WITH [
  {name: 'Paper', count: COUNT { (:Paper) }},
  {name: 'Author', count: COUNT { (:Author) }},
  {name: 'Category', count: COUNT { (:Category) }},
  {name: 'Snapshot', count: COUNT { (:Snapshot) }},
  {name: 'ListedApart', count: COUNT { (:ListedApart) }},
  {name: 'KeepApart', count: COUNT { (:KeepApart) }},
  {name: 'TitleLock', count: COUNT { (:TitleLock) }},
  {name: 'AnalyticsRun', count: COUNT { (:AnalyticsRun) }},
  {name: 'PageRankTop1', count: COUNT { (:PageRankTop1) }},
  {name: 'PageRankTop10', count: COUNT { (:PageRankTop10) }}
] AS known_nodes, [
  {name: 'CITES', count: COUNT { ()-[:CITES]->() }},
  {name: 'AUTHORED', count: COUNT { ()-[:AUTHORED]->() }},
  {name: 'PRIMARY_CATEGORY', count: COUNT { ()-[:PRIMARY_CATEGORY]->() }},
  {name: 'CROSS_LISTED', count: COUNT { ()-[:CROSS_LISTED]->() }},
  {name: 'DESCRIBED_IN', count: COUNT { ()-[:DESCRIBED_IN]->() }},
  {name: 'ALSO_TITLED', count: COUNT { ()-[:ALSO_TITLED]->() }},
  {name: 'FOLLOWS', count: COUNT { ()-[:FOLLOWS]->() }},
  {name: 'LISTS_APART', count: COUNT { ()-[:LISTS_APART]->() }},
  {name: 'CO_CITED', count: COUNT { ()-[:CO_CITED]->() }},
  {name: 'COUPLED', count: COUNT { ()-[:COUPLED]->() }}
] AS known_relationships
CALL (known_nodes) {
  CALL db.labels() YIELD label
  WITH label WHERE NOT label IN [known IN known_nodes | known.name]
  ORDER BY label
  CALL (label) {
    MATCH (n:$(label))
    RETURN count(n) AS count
  }
  RETURN collect({name: label, count: count}) AS other_nodes
}
CALL (known_relationships) {
  CALL db.relationshipTypes() YIELD relationshipType AS type
  WITH type WHERE NOT type IN [known IN known_relationships | known.name]
  ORDER BY type
  CALL (type) {
    MATCH ()-[r:$(type)]->()
    RETURN count(r) AS count
  }
  RETURN collect({name: type, count: count}) AS other_relationships
}
RETURN known_nodes + other_nodes AS nodes,
       known_relationships + other_relationships AS relationships
