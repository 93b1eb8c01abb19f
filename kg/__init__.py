"""The map as a Neo4j knowledge graph: loaders, named Cypher queries, analytics and the `kg` CLI.

``kg.KnowledgeGraph.connect()`` is the way in (see ``kg.knowledge_graph``); ``Scope`` and
``Selection`` say which papers an analytics run or an export covers.
"""

__version__ = "0.9.0"  # before the imports below: kg.load.neo4j_sink reads it as they load

from kg.analytics import Scope
from kg.errors import KGError
from kg.export import Selection
from kg.knowledge_graph import KnowledgeGraph

__all__ = ["KGError", "KnowledgeGraph", "Scope", "Selection", "__version__"]
