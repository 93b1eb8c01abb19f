"""Headless Chromium for tests, from Debian's `chromium` and `chromium-driver` packages.

`make test` installs them when they are missing. Without them a browser test is skipped
with a reason, except under CI=true, where it fails.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.data import in_ci

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking")


def _missing() -> str | None:
    for program in (CHROMIUM, CHROMEDRIVER):
        if shutil.which(program) is None:
            return f"{program} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """Yield a selenium driver on headless Chromium that records every network request."""
    reason = _missing()
    if reason is not None:
        if in_ci():
            pytest.fail(f"{reason}; under CI=true browser tests must run", pytrace=False)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument("--window-size=1280,900")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def requested_urls(driver: Any) -> list[str]:
    """Return every URL the page asked for since the last call (from the performance log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
        elif message.get("method") == "Network.webSocketCreated":
            urls.append(message["params"]["url"])
    return urls
