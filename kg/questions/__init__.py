"""Questions over the map: one function per question, each taking a Database.

Every question runs named, read-only queries from ``cypher/`` (the same files run in Neo4j
Browser after ``:param``) and returns a model from ``kg.answers``. Papers are named by a REF
(see ``kg.refs``); a REF that names no paper, or several, raises before any question runs.

The questions live by family: ``paper`` (a paper's page, its snapshots and its sources),
``neighbours`` (co-citation, coupling, shared references, common citers), ``paths`` (shortest
paths and neighbourhoods), ``graph_layers`` (a paper's graph as nodes and edges, for the
web view), ``find`` (search), ``authors``, ``arxiv_categories``, ``overview`` (the map at
a glance) and ``seeds`` (the connector and recommendations over a set of papers);
``bounds`` holds the parameters' limits. This package re-exports every question but the
seed ones.
"""

from kg.errors import AmbiguousAuthor, AuthorNotFound, CategoryNotFound
from kg.questions.arxiv_categories import categories, category
from kg.questions.authors import author
from kg.questions.bounds import (
    DEFAULT_LIMIT,
    DEFAULT_MAX_HOPS,
    HOPS,
    MAX_HOPS,
    MAX_NEAR_HOPS,
    NEAR_HOPS,
)
from kg.questions.find import SEARCH_SCORE_CUTOFF, search
from kg.questions.graph_layers import graph_data
from kg.questions.neighbours import cocited, common_citers, coupled, shared_references
from kg.questions.overview import overview
from kg.questions.paper import paper_report, snapshots, sources
from kg.questions.paths import citation_path, neighbourhood

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MAX_HOPS",
    "HOPS",
    "MAX_HOPS",
    "MAX_NEAR_HOPS",
    "NEAR_HOPS",
    "SEARCH_SCORE_CUTOFF",
    "AmbiguousAuthor",
    "AuthorNotFound",
    "CategoryNotFound",
    "author",
    "categories",
    "category",
    "citation_path",
    "cocited",
    "common_citers",
    "coupled",
    "graph_data",
    "neighbourhood",
    "overview",
    "paper_report",
    "search",
    "shared_references",
    "snapshots",
    "sources",
]
