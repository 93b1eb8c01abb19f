"""`kg serve`: the map as a local, read-only web app.

Every page asks the same KnowledgeGraph the CLI and scripts ask (its questions, exports and
plots), and runs no Cypher of its own. The app only reads: every route is a GET and every
query runs in a READ transaction. It binds to 127.0.0.1 unless told otherwise, answers only
requests that name it by a local host name or an allowed one (kg.web.hosts), and it needs
no internet: its stylesheet, the graph view's script and the library that draws the graph
(Cytoscape.js, in static/vendor) are served by the app itself. The graph view's page is a
frame; its data comes as JSON from /graph.json, the answer of ``graph.graph_data``.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kg import queries
from kg.answers import GraphLayer, TextNeighbours, short_handle
from kg.errors import (
    AnalyticsError,
    ConnectionFailed,
    EmbeddingUnavailable,
    KGError,
    ParameterError,
    PlotError,
    QueryFailed,
    SimilarityError,
)
from kg.export import Selection
from kg.knowledge_graph import KnowledgeGraph
from kg.questions.graph_layers import DEFAULT_GRAPH_LIMITS, GRAPH_LAYERS
from kg.text import display, display_key
from kg.web.hosts import KnownHosts
from loaders.titles import parse_title_key

__all__ = ["GUIDE", "create_app", "paper_url"]

HERE = Path(__file__).resolve().parent
_LIST = 50
_SIMILAR = 10
_SEARCH = 30
_HOME_TOP = 10
_MAX_OFFSET = 10**9
# The most papers a graph layer draws: beyond these a force layout on a screen is a blot.
_GRAPH_LIMITS: dict[str, int] = {"citations": 200, "cocited": 100, "coupled": 100}
_SUFFIXES = {"graphml": "graphml", "gexf": "gexf", "pajek": "net", "bibtex": "bib", "ris": "ris"}
_MEDIA = {
    "graphml": "application/xml",
    "gexf": "application/xml",
    "pajek": "text/plain",
    "bibtex": "application/x-bibtex",
    "ris": "application/x-research-info-systems",
}
# The Browser guide's slides: a named question, its title, and parameters on the default map.
GUIDE: list[tuple[str, str, dict[str, object]]] = [
    ("paper_report", "A paper's map page", {"key": "hep-th/9711200"}),
    ("cocited_graph", "Co-citation, drawn", {"key": "hep-th/9711200", "limit": 15}),
    ("coupled_graph", "Bibliographic coupling, drawn", {"key": "hep-th/9711200", "limit": 15}),
    (
        "shared_references_graph",
        "What two papers both cite",
        {"a": "hep-th/9802150", "b": "hep-th/9802109"},
    ),
    ("common_citers_graph", "Who cites both", {"a": "1706.03762", "b": "1810.04805"}),
    ("neighbourhood_graph", "A neighbourhood", {"key": "hep-th/9711200", "hops": 1, "limit": 30}),
    (
        "shortest_path",
        "A citation path",
        {"source": "hep-th/0202021", "target": "hep-th/9602022", "max_hops": 6},
    ),
    ("cocited", "Co-citation as a table", {"key": "hep-th/9711200", "limit": 10}),
    ("coupled", "Coupling as a table", {"key": "hep-th/9711200", "limit": 10}),
    # The vector index, after `kg embed`: alone, then with a citation pattern.
    (
        "like_this",
        "More like this, by meaning",
        {"key": "hep-th/9906064", "candidates": 100, "limit": 10},
    ),
    (
        "like_this_citing",
        "Like this one in meaning, and citing another",
        {"key": "hep-th/9906064", "cited": "hep-th/9711200", "candidates": 200, "limit": 10},
    ),
]


def paper_url(key: str) -> str:
    """Return the page of the paper with this node key (or arXiv id)."""
    return "/paper/" + quote(key, safe="/")


def _why_url(measure: str, a: str, b: str) -> str:
    return "/why?" + urlencode({"measure": measure, "a": a, "b": b})


def _environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals.update(paper_url=paper_url, why_url=_why_url, handle=_handle)
    environment.filters["number"] = lambda value: "" if value is None else f"{value:,}"
    environment.filters["score"] = lambda value: f"{value:.3f}"
    environment.filters["display"] = _display
    return environment


def _handle(key: str, arxiv_id: str | None = None) -> str:
    """The `handle` global: a paper's short handle (short_handle), '' for a paper known by
    title only, whose title and year the row shows instead of its internal key."""
    return "" if parse_title_key(key) is not None else short_handle(key, arxiv_id)


def _display(text: str | None, key: str | None = None) -> str:
    """The `display` filter: a title as it prints (``{{ p.title | display(p.key) }}``); with
    no title, the paper's key as a person reads it (a title key as title and year)."""
    return display(text) if text else display_key(key) if key else ""


def _alike(graph: KnowledgeGraph, key: str) -> TextNeighbours | None:
    """The papers nearest in meaning to a paper, or None before `kg embed` has run."""
    try:
        return graph.similar_by_text(key, _SIMILAR)
    except EmbeddingUnavailable:
        return None


def create_app(
    connect: Callable[[], KnowledgeGraph] = KnowledgeGraph.connect,
    allowed_hosts: Iterable[str] = (),
) -> Starlette:
    """Return the web app; ``connect`` opens the KnowledgeGraph it reads (once, at start-up).

    The app answers only requests whose Host header names localhost, 127.0.0.1, [::1] or one
    of ``allowed_hosts`` ('*': any), and any other with 400, so that a web page cannot read
    it through DNS rebinding (see kg.web.hosts).
    """
    site = _Site(connect)
    page = site.answering(site.error_page)
    data = site.answering(_error_json)
    routes = [
        Route("/", page(site.home)),
        Route("/search", page(site.search)),
        Route("/paper/{ref:path}", page(site.paper)),
        Route("/why", page(site.why)),
        Route("/graph", page(site.neighbourhood)),
        Route("/graph.json", data(_graph_json)),
        Route("/author", page(site.author)),
        Route("/category/{code}", page(site.category)),
        Route("/guide", site.guide, methods=["GET", "HEAD", "OPTIONS"]),
        Route("/export", page(_download)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=site.lifespan,
        middleware=[Middleware(KnownHosts, hosts=tuple(allowed_hosts))],
    )
    app.add_route("/{rest:path}", _refuse, methods=["POST", "PUT", "PATCH", "DELETE"])
    app.add_route("/{rest:path}", site.missing, methods=["GET", "HEAD"])
    return app


class _Site:
    """The pages of the web app, rendered from its templates over the KnowledgeGraph
    ``connect`` opens at start-up (``lifespan``)."""

    def __init__(self, connect: Callable[[], KnowledgeGraph]) -> None:
        self.connect = connect
        self.pages = _environment()
        self.state: dict[str, KnowledgeGraph] = {}

    @asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        """Hold the graph open while the app runs."""
        self.state["graph"] = self.connect()
        try:
            yield
        finally:
            self.state.pop("graph").close()

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Return the page of template ``name`` over ``context``."""
        return HTMLResponse(self.pages.get_template(name).render(**context), status_code=status)

    def error_page(self, message: str, hint: str, status: int) -> HTMLResponse:
        """Return the HTML page of a refused request: its message and hint."""
        heading = _HEADINGS.get(status, "error")
        return self.render("error.html", status, heading=heading, message=message, hint=hint)

    def answering(
        self,
        refused: Callable[[str, str, int], Response],
    ) -> Callable[[Callable[[Request, KnowledgeGraph], Response]], Callable[[Request], Response]]:
        """Wrap a handler of (request, graph): the project's error becomes ``refused``'s
        answer (an HTML page, or JSON for a data endpoint) with its status."""

        def wrap(
            handler: Callable[[Request, KnowledgeGraph], Response],
        ) -> Callable[[Request], Response]:
            def endpoint(request: Request) -> Response:
                try:
                    return handler(request, self.state["graph"])
                except KGError as exc:
                    return refused(exc.message, exc.hint, _status(exc))

            return endpoint

        return wrap

    def home(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/: the overview, or a search typed into it."""
        query = request.query_params.get("q", "").strip()
        if query:
            mode = request.query_params.get("mode", "text")
            return RedirectResponse(
                "/search?" + urlencode({"q": query, "mode": mode}), status_code=303
            )
        return self.render("home.html", overview=graph.overview(_HOME_TOP, _HOME_TOP))

    def search(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/search: a page of search results."""
        params = request.query_params
        text = params.get("q", "").strip()
        mode = params.get("mode", "text")
        year_from = _year(params, "year_from")
        year_to = _year(params, "year_to")
        category = params.get("category", "").strip() or None
        offset = _int(params.get("offset"), 0, 0, _MAX_OFFSET)
        result = (
            graph.search(
                text,
                _SEARCH,
                mode=mode,  # type: ignore[arg-type]
                offset=offset,
                year_from=year_from,
                year_to=year_to,
                category=category,
            )
            if text
            else None
        )
        return self.render(
            "search.html",
            text=text,
            mode=mode,
            year_from=year_from,
            year_to=year_to,
            category=category or "",
            result=result,
            shown=_SEARCH,
            paged=_paged(request),
        )

    def paper(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/paper/REF: a paper, its citations per year and its neighbours."""
        ref = request.path_params["ref"]
        params = request.query_params
        offsets = {
            name: _int(params.get(f"{name}_offset"), 0, 0, _MAX_OFFSET)
            for name in ("references", "citers", "cocited", "coupled")
        }
        report = graph.paper(
            ref,
            limit=_LIST,
            references_offset=offsets["references"],
            citers_offset=offsets["citers"],
        )
        counted = {c.year: c.count for c in report.citers_per_year}
        stated = {c.year: c.count for c in report.stated_citers_per_year}
        years = sorted({y for y in (*counted, *stated) if y is not None})
        peak = max([*counted.values(), *stated.values(), 1])
        return self.render(
            "paper.html",
            report=report,
            years=[(y, counted.get(y, 0), stated.get(y)) for y in years],
            ticks=_ticks(peak),
            stated=bool(stated),
            sources=graph.sources(report.key),
            cocited=graph.cocited(report.key, _SIMILAR, offset=offsets["cocited"]),
            coupled=graph.coupled(report.key, _SIMILAR, offset=offsets["coupled"]),
            alike=_alike(graph, report.key),
            shown=_LIST,
            similar=_SIMILAR,
            paged=_paged(request),
        )

    def why(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/why: the papers two papers share (cited together or citing alike)."""
        measure = request.query_params.get("measure", "cocited")
        a, b = request.query_params.get("a", ""), request.query_params.get("b", "")
        if measure == "coupled":
            overlap = graph.shared_references(a, b)
            sentence = "Both cite these papers"
        else:
            overlap = graph.common_citers(a, b)
            sentence = "These papers cite both"
        offset = _int(request.query_params.get("offset"), 0, 0, _MAX_OFFSET)
        return self.render(
            "why.html",
            overlap=overlap,
            page=overlap.results[offset : offset + _LIST],
            offset=offset,
            sentence=sentence,
            shown=_LIST,
            paged=_paged(request),
        )

    def neighbourhood(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/graph: the graph view of a paper's neighbourhood."""
        layer, hops, limit = _graph_params(request)
        return self.render(
            "graph.html",
            paper=graph.resolve(request.query_params.get("ref", "")),
            layer=layer,
            layers=GRAPH_LAYERS,
            hops=hops,
            limit=limit,
        )

    def author(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/author: an author's papers and coauthors."""
        offset = _int(request.query_params.get("offset"), 0, 0, _MAX_OFFSET)
        report = graph.author(request.query_params.get("name", ""), limit=_LIST, offset=offset)
        coauthors = _int(request.query_params.get("coauthors_offset"), 0, 0, _MAX_OFFSET)
        return self.render(
            "author.html",
            report=report,
            shown=_LIST,
            paged=_paged(request),
            coauthors_offset=coauthors,
            coauthors=report.coauthors[coauthors : coauthors + _LIST],
        )

    def category(self, request: Request, graph: KnowledgeGraph) -> Response:
        """/category/CODE: a category's papers."""
        offset = _int(request.query_params.get("offset"), 0, 0, _MAX_OFFSET)
        report = graph.category(request.path_params["code"], _LIST, offset=offset)
        return self.render("category.html", report=report, shown=_LIST, paged=_paged(request))

    def guide(self, request: Request) -> Response:
        """/guide: the Neo4j Browser guide of the example queries."""
        if request.method == "OPTIONS":
            return _guide_preflight()
        slides = [
            {
                "title": title,
                "doc": queries.get(name).doc,
                "params": "\n".join(f":param {k} => {v!r};" for k, v in params.items()),
                "cypher": queries.get(name).cypher,
            }
            for name, title, params in GUIDE
        ]
        response = self.render("guide.html", guide=slides)
        # Neo4j Browser fetches a guide from its own origin: allow it to read this one.
        response.headers["Access-Control-Allow-Origin"] = "*"
        return response

    def missing(self, request: Request) -> Response:
        """404 for a path with no page."""
        return self.error_page(
            f"no page at {request.url.path}",
            "start from the home page, /, or search for a paper",
            404,
        )


def _error_json(message: str, hint: str, status: int) -> JSONResponse:
    """The JSON answer of a refused data request: its message and hint."""
    return JSONResponse({"error": message, "hint": hint}, status_code=status)


def _graph_json(request: Request, graph: KnowledgeGraph) -> Response:
    """/graph.json: the neighbourhood the graph view draws."""
    layer, hops, limit = _graph_params(request)
    answer = graph.graph_data(request.query_params.get("ref", ""), layer, hops, limit)
    return JSONResponse(answer.model_dump(mode="json"))


def _download(request: Request, graph: KnowledgeGraph) -> Response:
    """/export: a paper's neighbourhood as one export file, an attachment.

    Raises:
        ParameterError: for a format that is no single file.
    """
    fmt = request.query_params.get("format", "graphml")
    ref = request.query_params.get("around", "")
    hops = _int(request.query_params.get("hops"), 1, 1, 3)
    writer = graph.exports.FORMATS.get(fmt)
    if writer is None or writer.folder:
        files = ", ".join(name for name, w in graph.exports.FORMATS.items() if not w.folder)
        raise ParameterError(f"no single-file export format {fmt!r}", f"use one of {files}")
    paper_ = graph.paper(ref)
    name = f"{paper_.handle.replace('/', '_').rstrip('…')}-{hops}hop.{_SUFFIXES[fmt]}"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        graph.exports.write(fmt, path, Selection(around=paper_.key, hops=hops))
        body = path.read_bytes()
    return Response(body, media_type=_MEDIA[fmt], headers=_attachment(name))


def _refuse(_request: Request) -> Response:
    """405 for any request that would write: the app is read-only."""
    return HTMLResponse("read-only\n", status_code=405)


# The heading of an error page, by its status: a page that failed is not "not found".
_HEADINGS = {
    400: "cannot answer that",
    404: "not found",
    500: "the graph failed",
    503: "the graph cannot be reached",
}


def _status(error: KGError) -> int:
    """The HTTP status of a page that raised ``error``: the graph cannot be reached (503),
    the request asks for something that cannot be (400), Neo4j failed (500), or what it
    names is not in the graph (404)."""
    if isinstance(error, ConnectionFailed):
        return 503
    if isinstance(error, ParameterError | AnalyticsError | SimilarityError):
        return 400
    if isinstance(error, QueryFailed | PlotError):
        return 500
    return 404


def _attachment(name: str) -> dict[str, str]:
    """A Content-Disposition header for a download named ``name``: an ASCII name every client
    reads, and, when the name is not plain ASCII, the name itself (RFC 6266 ``filename*``)."""
    plain = "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in name)
    value = f'attachment; filename="{plain}"'
    if plain != name:
        value += "; filename*=UTF-8''" + quote(name, safe="")
    return {"Content-Disposition": value}


def _guide_preflight() -> Response:
    # Neo4j Browser fetches a guide with no-cache headers (pragma, cache-control), which
    # makes the cross-origin GET preflighted: without this answer :play never sees the guide.
    return Response(
        status_code=204,
        headers={
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Allow-Methods": "GET",
            "Access-Control-Allow-Headers": "pragma, cache-control",
            "Access-Control-Max-Age": "600",
        },
    )


def _ticks(peak: int) -> list[int]:
    """The marks of a count axis running from 0 to at least ``peak``: 0, then at most five
    steps of 1, 2 or 5 times a power of ten."""
    step = 1
    while step * 5 < peak:
        for factor in (2, 5 / 2, 2):
            step = int(step * factor)
            if step * 5 >= peak:
                break
    return list(range(0, step * (-(-peak // step)) + 1, step))


def _paged(request: Request) -> Callable[[str, int], str]:
    """Return ``url(name, offset)``: this page's URL with its query parameter ``name`` set to
    ``offset`` (the others kept), for a list's Previous and Next links."""

    def url(name: str, offset: int) -> str:
        query = {**request.query_params, name: str(offset)}
        anchor = name.removesuffix("_offset") if name != "offset" else ""
        return f"{request.url.path}?{urlencode(query)}" + (f"#{anchor}" if anchor else "")

    return url


def _year(params: Any, name: str) -> int | None:
    """The year a search form's field ``name`` holds, None when it is empty."""
    text = params.get(name, "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ParameterError(f"{name} is {text!r}", "give a year such as 1998") from None


def _graph_params(request: Request) -> tuple[GraphLayer, int, int]:
    """The layer, hops and limit a graph page or /graph.json asks for: an unknown layer is a
    ParameterError; hops (1 to 3) and limit (the layer's default, at most _GRAPH_LIMITS)
    are brought into range."""
    layer = request.query_params.get("layer", "citations")
    if layer not in GRAPH_LAYERS:
        raise ParameterError(f"no graph layer {layer!r}", "use citations, cocited or coupled")
    hops = _int(request.query_params.get("hops"), 1, 1, 3)
    limit = _int(
        request.query_params.get("limit"), DEFAULT_GRAPH_LIMITS[layer], 1, _GRAPH_LIMITS[layer]
    )
    return layer, hops, limit


def _int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text) if text else default
    except ValueError:
        return default
    return max(low, min(high, value))
