"""The `kg` command line: each command parses its arguments, calls the library, renders.

Only this package imports click. Library errors (KGError) become `Error: <what>. <what to do>`
with exit code 1, never a traceback. The root group (kg.cli.root) imports each command's
module when the command is called, so `kg --version` and `kg --help` start without the
library.
"""

from kg.cli.root import main

__all__ = ["main"]
