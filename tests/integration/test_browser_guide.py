"""The Browser guide that `kg serve` serves, played in the Neo4j Browser of the test server.

Headless Chromium logs into the Browser that the session's Neo4j serves, runs
`:play http://127.0.0.1:<port>/guide`, turns to a slide, runs its `:param` block and its
query with clicks, and reads the answer the Browser shows.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from kg import questions
from kg.database import Database
from kg.server.config import Connection
from kg.web.app import GUIDE
from tests.browser import chromium, requested_urls
from tests.integration.test_server_security import (
    BROWSER_ASSETS_AFTER_LOGIN,
    BROWSER_ASSETS_ON_OPEN,
    BROWSER_CRASH_REPORTS,
)
from tests.web_server import serving

_SLIDE = "cocited"  # the slide whose query the test runs: a table the Browser draws as rows


def _http_port(graph: Database) -> int:
    rows = graph.read(
        "SHOW SETTINGS YIELD name, value WHERE name = 'server.http.listen_address' RETURN value"
    )
    return int(rows[0]["value"].rsplit(":", 1)[1])


def _allowlist(debug: str) -> str:
    for line in debug.splitlines():
        if "remoteContentHostnameAllowlist" in line:
            return line
    return ""


@pytest.fixture
def guide_map(graph: Database, tmp_path: Path) -> tuple[Database, str]:
    """A few citations around the guide's paper, loaded by the project's own loader: two
    papers are co-cited with it twice and once."""
    from kg.knowledge_graph import KnowledgeGraph

    key = str(next(params for name, _, params in GUIDE if name == _SLIDE)["key"])
    edges = tmp_path / "edges.csv"
    edges.write_text(
        "citing,cited\n"
        f"hep-th/0001001,{key}\nhep-th/0001001,hep-th/9802150\n"
        f"hep-th/0001002,{key}\nhep-th/0001002,hep-th/9802150\n"
        f"hep-th/0001003,{key}\nhep-th/0001003,hep-th/9802109\n",
        encoding="utf-8",
    )
    KnowledgeGraph.on(graph).load([edges], rejects_path=tmp_path / "rejects")
    return graph, key


@pytest.fixture
def guide_server(neo4j_connection: Connection) -> Iterator[str]:
    """`kg serve`'s app on a free loopback port, in a thread."""
    with serving(neo4j_connection) as url:
        yield url


def test_play_the_guide_in_neo4j_browser(
    guide_map: tuple[Database, str], guide_server: str, neo4j_connection: Connection
) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    graph, key = guide_map
    if neo4j_connection.external:
        pytest.skip("the Browser guide test needs the project's own local server and its config")
    http_port = _http_port(graph)
    bolt_port = urlsplit(neo4j_connection.uri).port
    index = next(n for n, (name, _, _) in enumerate(GUIDE) if name == _SLIDE)
    title = GUIDE[index][1]
    expected = questions.cocited(graph, key, int(str(GUIDE[index][2]["limit"])))
    assert expected.results  # the slide has rows to show
    blocked = guide_server.replace("127.0.0.1", "127.0.0.2")

    with chromium() as driver:
        wait = WebDriverWait(driver, 60)
        driver.get(
            f"http://127.0.0.1:{http_port}/browser/?connectURL=neo4j://neo4j@127.0.0.1:{bolt_port}"
        )
        wait.until(
            expected_conditions.presence_of_element_located(
                (By.CSS_SELECTOR, "input[type='password']")
            )
        ).send_keys(neo4j_connection.password, Keys.ENTER)
        wait.until(lambda d: "connected" in d.page_source.lower())

        def run(command: str) -> None:
            editor = driver.find_element(By.CSS_SELECTOR, "[data-testid=activeEditor] textarea")
            editor.send_keys(Keys.CONTROL, "a")  # replace whatever the editor still holds
            editor.send_keys(Keys.DELETE)
            editor.send_keys(command, Keys.ENTER)

        def frame(command_start: str) -> str:
            for found in driver.find_elements(By.CSS_SELECTOR, "[data-testid=frame]"):
                command = found.find_element(By.CSS_SELECTOR, "[data-testid=frameCommand]")
                if command.text.startswith(command_start):
                    return str(found.text)
            return ""

        # Browser reads the server's settings (the remote-content allowlist among them) after
        # it connects; until then it holds its own default list. :debug shows what it holds.
        deadline = time.monotonic() + 60
        while "127.0.0.1" not in _allowlist(frame(":debug")):
            assert time.monotonic() < deadline, frame(":debug")
            run(":debug")
            time.sleep(1)

        # A host outside the server's remote-content allowlist is refused before any fetch
        # (Browser says only "Not found"; the request log shows it never asked that host).
        run(f":play {blocked}/guide")
        wait.until(lambda d: "No guide by that name" in frame(f":play {blocked}"))
        refused = requested_urls(driver)

        run(f":play {guide_server}/guide")
        deck = wait.until(
            expected_conditions.presence_of_element_located(
                (By.XPATH, "//h3[text()='The map']/ancestor::*[@data-testid='carousel']")
            )
        )
        wait.until(lambda d: f"1 / {len(GUIDE) + 1}" in deck.text)  # shown, not only there
        # The slide can still be sliding in, partly clipped (once only its last two lines
        # showed): wait for it to settle, then say what is missing if it never does.
        with contextlib.suppress(TimeoutException):
            wait.until(lambda d: all(other[1] in deck.text for other in GUIDE))
        for other in GUIDE:
            assert other[1] in deck.text  # the first slide lists every question
        for _ in range(index + 1):
            driver.execute_script(
                "arguments[0].click()", deck.find_element(By.CSS_SELECTOR, ".next-slide")
            )
        wait.until(lambda d: f"{index + 2} / {len(GUIDE) + 1}" in deck.text)
        assert deck.find_element(By.CSS_SELECTOR, "h3").text == title
        blocks = deck.find_elements(By.CSS_SELECTOR, "pre.runnable")
        assert [b.text.split()[0] for b in blocks] == [":param", "MATCH"]
        # A click puts a block in the editor; the Run button runs it. Browser sets parameters
        # asynchronously: a query run before they are set says which are missing, so it is
        # run again until it streams its answer.
        blocks[0].click()
        driver.find_element(By.CSS_SELECTOR, "[data-testid=editor-Run]").click()
        query = "MATCH (a:Paper {key: $key})"
        deadline = time.monotonic() + 60
        while True:
            time.sleep(1)
            blocks[1].click()
            driver.find_element(By.CSS_SELECTOR, "[data-testid=editor-Run]").click()
            wait.until(lambda d: any(s in frame(query) for s in ("Started streaming", "ERROR")))
            if "Started streaming" in frame(query):
                break
            assert "ParameterMissing" in frame(query), frame(query)
            assert time.monotonic() < deadline, frame(":param")
        answer = frame(query)
        params = frame(":param")
        urls = refused + requested_urls(driver)

    assert not any(urlsplit(url).hostname == "127.0.0.2" for url in urls)
    assert "Syntax error" not in params
    assert f"Started streaming {len(expected.results)} records" in answer
    for paper in expected.results:
        assert f'"{paper.key}"' in answer
    assert any(url.startswith(f"{guide_server}/guide") for url in urls)
    known = (*BROWSER_ASSETS_ON_OPEN, *BROWSER_ASSETS_AFTER_LOGIN, *BROWSER_CRASH_REPORTS)
    outside = {
        url
        for url in urls
        if url.startswith(("http", "ws"))
        and urlsplit(url).hostname not in ("127.0.0.1", "localhost")
        and not url.startswith(known)
    }
    assert outside == set()
