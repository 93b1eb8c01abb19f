"""The map as a Neo4j knowledge graph: loaders, named Cypher queries, analytics and the `kg` CLI."""

__version__ = "0.1.0"  # before the imports below: kg.load.neo4j_sink reads it as they load

from kg.errors import KGError
from kg.knowledge_graph import KnowledgeGraph

__all__ = ["KGError", "KnowledgeGraph", "__version__"]
