"""The StreamSettings a test hands to the load wing's own steps (``load_files``,
``load_stream``): the face's defaults (``KnowledgeGraph.load``) with what the test sets, so
that the tests declare no default of their own."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

from kg.knowledge_graph import KnowledgeGraph
from kg.load.pipeline import StreamSettings


def stream_settings(**given: Any) -> StreamSettings:
    """Return the StreamSettings of ``KnowledgeGraph.load`` called with ``given``."""
    parameters = inspect.signature(KnowledgeGraph.load).parameters
    names = [field.name for field in dataclasses.fields(StreamSettings) if field.name in parameters]
    return StreamSettings(**{name: parameters[name].default for name in names} | given)
