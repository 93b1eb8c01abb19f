// name: graph_stats
// mode: read
// How many nodes carry each of the model's labels and how many relationships have each
// of its types. Every count is a literal pattern, so Neo4j answers from its count store
// at once on any size of graph.
RETURN {
  Paper: COUNT { (:Paper) },
  Author: COUNT { (:Author) },
  Category: COUNT { (:Category) },
  Snapshot: COUNT { (:Snapshot) },
  AnalyticsRun: COUNT { (:AnalyticsRun) }
} AS nodes, {
  CITES: COUNT { ()-[:CITES]->() },
  AUTHORED: COUNT { ()-[:AUTHORED]->() },
  PRIMARY_CATEGORY: COUNT { ()-[:PRIMARY_CATEGORY]->() },
  CROSS_LISTED: COUNT { ()-[:CROSS_LISTED]->() },
  DESCRIBED_IN: COUNT { ()-[:DESCRIBED_IN]->() }
} AS relationships
