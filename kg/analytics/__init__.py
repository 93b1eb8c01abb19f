"""Analytics over the whole map.

``ranking`` ranks papers and finds communities (``rank``, ``communities``) with one of two
engines: ``igraph_engine`` (the default, in this process) and ``gds_engine`` (the server's Database
Data Science plugin). ``similarity`` stores every paper's top co-cited and coupled papers;
``time`` finds bursts, sleeping beauties, traction and main paths, with the pure arithmetic in
``time_series`` and ``mainpath``.
"""

# The package's face is the ranking module: its names, and only those, are kg.analytics.*.
from kg.analytics.ranking import *  # noqa: F403
from kg.analytics.ranking import __all__ as __all__
