"""Loading files into the graph.

A file's path through this package: ``pipeline`` tells its format (``loaders.formats``) and
streams its validated records in batches; ``rows`` turns a batch into the load statements'
rows; ``neo4j_sink`` writes them to a live server and ``reconcile`` applies the identity rule
to what they touched; ``import_sink`` and ``bulk`` write them as ``neo4j-admin`` import files.
``schema`` is applied before any load; ``merges`` lists and splits the merges the identity
rule made.
"""

__all__: list[str] = []
