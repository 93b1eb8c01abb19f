"""`kg serve`: the map as a local, read-only web app (see ``kg.web.app``).

This module stays light, so that the CLI can name the defaults without importing the web
stack; ``create_app`` imports it on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "create_app"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def create_app(*args: Any, **kwargs: Any) -> Starlette:
    """Return the web app (see kg.web.app.create_app)."""
    from kg.web import app

    return app.create_app(*args, **kwargs)
