"""The map as a Neo4j knowledge graph: loaders, named Cypher queries, analytics and the `kg` CLI.

``kg.KnowledgeGraph.connect()`` is the way in (see ``kg.knowledge_graph``); ``Scope`` and
``Selection`` say which papers an analytics run or an export covers. They are imported on
first use, so that ``import kg`` (and ``kg --version``) loads none of the library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.10.0"

if TYPE_CHECKING:
    from kg.analytics import Scope
    from kg.errors import KGError
    from kg.export import Selection
    from kg.knowledge_graph import KnowledgeGraph

__all__ = ["KGError", "KnowledgeGraph", "Scope", "Selection", "__version__"]

_LATER = {
    "KGError": "kg.errors",
    "KnowledgeGraph": "kg.knowledge_graph",
    "Scope": "kg.analytics",
    "Selection": "kg.export",
}


def __getattr__(name: str) -> Any:
    """Import ``KnowledgeGraph``, ``KGError``, ``Scope`` and ``Selection`` on first use."""
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module 'kg' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
