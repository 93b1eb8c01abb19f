"""The Neo4j the map lives in: connection settings (``config``) and the managed local server
(``local``: install from Maven Central, start, stop, status, password)."""

__all__: list[str] = []
