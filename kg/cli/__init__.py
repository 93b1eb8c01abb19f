"""The `kg` command line: each command parses its arguments, calls the library, renders.

Only this package imports click. Library errors (KGError) become `Error: <what>. <what to do>`
with exit code 1, never a traceback.
"""

from kg.cli import (
    analytics_commands,
    data_commands,
    db_commands,
    embed_commands,
    export_commands,
    identity_commands,
    load_commands,
    plot_commands,
    query_commands,
    question_commands,
    serve_commands,
    timeline_commands,
)
from kg.cli.app import main

__all__ = [
    "analytics_commands",
    "data_commands",
    "db_commands",
    "embed_commands",
    "export_commands",
    "identity_commands",
    "load_commands",
    "main",
    "plot_commands",
    "query_commands",
    "question_commands",
    "serve_commands",
    "timeline_commands",
]
