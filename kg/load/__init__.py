"""Loading files into the graph.

A file's path through this package: ``pipeline`` tells its format (``loaders.formats``), streams
its validated records and resolves them into rows; ``neo4j_sink`` writes the rows to a live
server, ``import_sink`` and ``bulk`` write them as ``neo4j-admin`` import files. ``schema`` is
applied before any load; ``merges`` lists and splits the merges the identity rule made.
"""

__all__: list[str] = []
