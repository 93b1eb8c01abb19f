"""The map as a Neo4j knowledge graph: loaders, named Cypher queries, analytics and the `kg` CLI."""

from kg.errors import KGError
from kg.knowledge_graph import KnowledgeGraph

__version__ = "0.1.0"

__all__ = ["KGError", "KnowledgeGraph", "__version__"]
