// The graph view: one layer of a paper's graph, fetched as JSON from /graph.json (the answer
// of graph.graph_data) and drawn by Cytoscape.js. Size is the papers citing a paper (log
// scale), colour its year on the graph's own first..last scale, the same in every layer.
// Every text from the data goes into the page as text (textContent), never as markup.
// window.kgGraph is the handle the browser tests drive.
(function () {
  "use strict";

  var box = document.getElementById("graph");
  if (!box || typeof cytoscape !== "function") {
    return;
  }
  var view = box.parentElement;
  var settings = {
    ref: box.dataset.ref,
    layer: box.dataset.layer,
    hops: box.dataset.hops,
    limit: box.dataset.limit,
    paperUrl: box.dataset.paperUrl
  };
  var similarity = settings.layer !== "citations";
  var DEFAULT_LINKS = 20;
  var EXPAND_LIMIT = 10;
  var LABELLED = 12;
  // viridis, as the static pictures (kg plot ego) colour years
  var RAMP = ["#440154", "#414487", "#2a788e", "#22a884", "#7ad151", "#fde725"];
  var UNKNOWN = "#c8ccd4";
  var years = { first: null, last: null };
  var links = { shown: DEFAULT_LINKS, atMost: true };
  var current = null;

  var status = document.getElementById("graph-status");
  var tooltip = document.getElementById("graph-tooltip");
  var slider = document.getElementById("links");
  var sliderCount = document.getElementById("links-count");
  var details = document.getElementById("graph-details");

  function paperUrl(key) {
    // as kg.web.app.paper_url: every character but letters, digits, "-_.~" and "/" escaped
    return settings.paperUrl + encodeURIComponent(key).replace(/%2F/g, "/").replace(
      /[!'()*]/g,
      function (c) { return "%" + c.charCodeAt(0).toString(16).toUpperCase(); }
    );
  }

  function dataUrl(params) {
    return "/graph.json?" + new URLSearchParams(params).toString();
  }

  function mix(a, b, t) {
    var x = parseInt(a.slice(1), 16);
    var y = parseInt(b.slice(1), 16);
    var out = 0;
    for (var shift = 16; shift >= 0; shift -= 8) {
      var p = (x >> shift) & 255;
      var q = (y >> shift) & 255;
      out = (out << 8) | Math.round(p + (q - p) * t);
    }
    return "#" + (out | 0x1000000).toString(16).slice(1);
  }

  function colour(year) {
    if (year === null || year === undefined || years.first === null) {
      return UNKNOWN;
    }
    var span = years.last - years.first || 1;
    var t = Math.min(1, Math.max(0, (year - years.first) / span)) * (RAMP.length - 1);
    var i = Math.min(RAMP.length - 2, Math.floor(t));
    return mix(RAMP[i], RAMP[i + 1], t - i);
  }

  function diameter(citedBy) {
    return 14 + 11 * Math.log10(1 + citedBy);
  }

  // An arXiv id, or another id's key; a paper known by title only has none to show (its
  // key is internal: the title and year say it).
  function handle(node) {
    return node.arxiv_id || (node.key.indexOf("title:") === 0 ? "" : node.key);
  }

  function shortTitle(node) {
    var text = node.printed_title || handle(node);
    return text.length > 34 ? text.slice(0, 33).trimEnd() + "…" : text;
  }

  function nodeElement(node, centre, labelled, place) {
    var element = {
      group: "nodes",
      data: {
        id: node.key,
        key: node.key,
        title: node.printed_title,
        year: node.year,
        citedBy: node.cited_by,
        handle: handle(node),
        colour: colour(node.year),
        size: diameter(node.cited_by),
        label: labelled ? shortTitle(node) : ""
      },
      classes: centre ? "centre" : ""
    };
    if (place) {
      element.position = place;
    }
    return element;
  }

  function edgeElement(edge) {
    return {
      group: "edges",
      data: {
        id: edge.kind + ":" + edge.source + ">" + edge.target,
        source: edge.source,
        target: edge.target,
        kind: edge.kind,
        weight: edge.weight,
        together: edge.together
      }
    };
  }

  var cy = cytoscape({
    container: box,
    elements: [],
    minZoom: 0.2,
    maxZoom: 4,
    style: [
      {
        selector: "node",
        style: {
          width: "data(size)",
          height: "data(size)",
          "background-color": "data(colour)",
          "border-width": 1,
          "border-color": "#ffffff",
          label: "data(label)",
          "font-size": 10,
          color: "#1d2330",
          "text-valign": "bottom",
          "text-margin-y": 3,
          "text-outline-color": "#ffffff",
          "text-outline-width": 2,
          "text-max-width": 160,
          "min-zoomed-font-size": 7
        }
      },
      { selector: "node.centre", style: { "border-width": 4, "border-color": "#d62728" } },
      { selector: "node.hovered", style: { "border-width": 3, "border-color": "#2f5fb3" } },
      {
        selector: "edge",
        style: {
          "curve-style": "bezier",
          "line-color": "#9aa1ad",
          width: "mapData(weight, 0, 1, 1, 7)",
          opacity: "mapData(weight, 0, 1, 0.35, 0.85)"
        }
      },
      {
        selector: "edge[kind = 'cites']",
        style: {
          width: 1,
          opacity: 0.7,
          "target-arrow-shape": "triangle",
          "target-arrow-color": "#9aa1ad",
          "arrow-scale": 0.9
        }
      }
    ]
  });

  function similarityEdges() {
    return cy.edges("[kind != 'cites']").sort(function (a, b) {
      return b.data("weight") - a.data("weight") || (a.id() < b.id() ? -1 : 1);
    });
  }

  function setLinks(count) {
    var all = similarityEdges();
    var shown = Math.max(0, Math.min(all.length, count));
    links.shown = shown;
    links.atMost = shown === all.length;
    // a display bypass, not a class: cytoscape's :visible reads a class change only
    // after the next frame is drawn, and the count below must be true at once
    all.forEach(function (edge, i) {
      edge.style("display", i < shown ? "element" : "none");
    });
    slider.max = String(all.length);
    slider.value = String(shown);
    var text = shown + " of " + all.length + " links";
    if (shown > 0) {
      text += ", cosine ≥ " + all[shown - 1].data("weight").toFixed(2);
    }
    sliderCount.textContent = text;
    return cy.edges(":visible").length;
  }

  function lay(fit) {
    var heaviest = 0;
    cy.edges().forEach(function (edge) {
      heaviest = Math.max(heaviest, edge.data("weight"));
    });
    var layout = cy.layout({
      name: "cose",
      animate: false,
      randomize: fit,
      fit: true,
      padding: 30,
      nodeDimensionsIncludeLabels: true,
      // citations: the canvas's own shape, so that a wide screen gets a wide drawing; not
      // for similarity, where stretching would pull the closest pairs apart
      boundingBox: similarity ? undefined : { x1: 0, y1: 0, w: box.clientWidth, h: box.clientHeight },
      nodeRepulsion: function () { return similarity ? 12000 : 40000; },
      idealEdgeLength: function (edge) {
        if (edge.data("kind") === "cites") {
          return 70;
        }
        return 40 + 140 * (1 - edge.data("weight") / (heaviest || 1));
      },
      numIter: 1500
    });
    layout.run();
  }

  function showLegend() {
    document.getElementById("legend-first").textContent = years.first === null ? "" : years.first;
    document.getElementById("legend-last").textContent = years.last === null ? "" : years.last;
    var ramp = document.getElementById("legend-ramp");
    ramp.style.background = "linear-gradient(to right, " + RAMP.join(", ") + ")";
    var sizes = document.getElementById("legend-sizes");
    sizes.textContent = "";
    var most = 1;
    cy.nodes().forEach(function (node) { most = Math.max(most, node.data("citedBy")); });
    [1, 10, 100, 1000, 10000].forEach(function (count) {
      if (count > most && count > 10) {
        return;
      }
      var item = document.createElement("span");
      var dot = document.createElement("i");
      var px = diameter(count) + "px";
      dot.style.width = px;
      dot.style.height = px;
      item.appendChild(dot);
      item.appendChild(document.createTextNode(count.toLocaleString("en")));
      sizes.appendChild(item);
    });
  }

  function describe(node) {
    var facts = [];
    if (node.data("year") !== null && node.data("year") !== undefined) {
      facts.push(String(node.data("year")));
    }
    facts.push("cited by " + node.data("citedBy").toLocaleString("en") + " in the graph");
    if (node.data("handle")) {
      facts.push(node.data("handle"));
    }
    return facts.join(" · ");
  }

  function hover(node) {
    cy.nodes(".hovered").removeClass("hovered");
    node.addClass("hovered");
    tooltip.textContent = "";
    var title = document.createElement("div");
    title.className = "title";
    title.textContent = node.data("title") || node.data("handle");
    var facts = document.createElement("div");
    facts.className = "facts";
    facts.textContent = describe(node);
    tooltip.appendChild(title);
    tooltip.appendChild(facts);
    var at = node.renderedPosition();
    tooltip.hidden = false;
    var left = Math.min(at.x + 14, box.clientWidth - tooltip.offsetWidth - 4);
    var top = at.y + 14;
    if (top + tooltip.offsetHeight > box.clientHeight) {
      top = at.y - 14 - tooltip.offsetHeight;
    }
    tooltip.style.left = Math.max(0, left) + "px";
    tooltip.style.top = Math.max(0, top) + "px";
    current = node.id();
    document.getElementById("details-title").textContent = title.textContent;
    document.getElementById("details-facts").textContent = facts.textContent;
    document.getElementById("details-open").href = paperUrl(current);
    details.hidden = false;
  }

  function say(text) {
    status.textContent = text;
  }

  function counted() {
    var papers = cy.nodes().length;
    var edges = cy.edges().length;
    var what = similarity ? " links among them" : " citations among them";
    return papers + " papers, " + edges + what;
  }

  // Add the papers and links of ``answer`` not drawn yet, the new papers around ``around``.
  function add(answer, around) {
    var place = cy.getElementById(around).position();
    var fresh = [];
    answer.nodes.forEach(function (node, i) {
      if (cy.getElementById(node.key).empty()) {
        var spot = { x: place.x + 60 * Math.cos(i), y: place.y + 60 * Math.sin(i) };
        fresh.push(nodeElement(node, false, false, spot));
      }
    });
    var added = cy.add(fresh);
    var edges = answer.edges.filter(function (edge) {
      return cy.getElementById(edgeElement(edge).data.id).empty();
    }).map(edgeElement);
    cy.add(edges);
    return added.length;
  }

  function fail(response, body) {
    var text = body && body.error ? body.error + ". " + (body.hint || "") : response.statusText;
    say("Could not load the graph: " + text);
    box.dataset.state = "error";
  }

  function fetchJson(url) {
    return fetch(url, { headers: { Accept: "application/json" } }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) {
          fail(response, body);
          throw new Error("graph.json " + response.status);
        }
        return body;
      });
    });
  }

  function expand(key) {
    box.dataset.state = "loading";
    say("Adding the neighbours of " + (cy.getElementById(key).data("title") || key) + "…");
    var params = { ref: key, layer: settings.layer, hops: 1, limit: EXPAND_LIMIT };
    return fetchJson(dataUrl(params)).then(function (answer) {
      var atMost = links.atMost;
      var added = add(answer, key);
      lay(false);
      if (similarity) {
        setLinks(atMost ? Infinity : links.shown);
      }
      say(counted() + " (" + added + " added around " + answer.paper.key + ")");
      box.dataset.state = "ready";
      return added;
    });
  }

  function fitHeight() {
    var top = view.getBoundingClientRect().top + window.scrollY;
    var room = window.innerHeight - top - 44;
    view.style.height = Math.max(320, room) + "px";
    cy.resize();
  }

  cy.on("mouseover", "node", function (event) { hover(event.target); });
  cy.on("mouseout", "node", function (event) {
    event.target.removeClass("hovered");
    tooltip.hidden = true;
  });
  cy.on("tap", "node", function (event) { window.location.assign(paperUrl(event.target.id())); });
  cy.on("cxttap", "node", function (event) { expand(event.target.id()); });
  cy.on("pan zoom", function () { tooltip.hidden = true; });
  document.getElementById("details-expand").addEventListener("click", function () {
    if (current !== null) {
      expand(current);
    }
  });
  slider.addEventListener("input", function () { setLinks(Number(slider.value)); });
  window.addEventListener("resize", fitHeight);

  fitHeight();
  fetchJson(dataUrl(settings)).then(function (answer) {
    years.first = answer.first_year;
    years.last = answer.last_year;
    var elements = answer.nodes.map(function (node, i) {
      return nodeElement(node, i === 0, i <= LABELLED, null);
    });
    cy.add(elements);
    cy.add(answer.edges.map(edgeElement));
    lay(true);
    if (similarity) {
      document.getElementById("links-control").hidden = false;
      setLinks(DEFAULT_LINKS);
    }
    showLegend();
    say(counted() + (answer.note ? ". " + answer.note : ""));
    box.dataset.state = "ready";
  }).catch(function (error) {
    if (box.dataset.state !== "error") {
      say("Could not load the graph: " + error.message);
      box.dataset.state = "error";
    }
  });

  window.kgGraph = { cy: cy, setLinks: setLinks, expand: expand, paperUrl: paperUrl };
})();
