"""The web console: static files from the package (`mnemex/web/`) at `/` and `/console/...`.

The pages hold no data: every view reads and writes through the public REST API with the
visitor's token, so these routes need none (auth.py leaves them open) and nothing is fetched
from anywhere but this server.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from mnemex.errors import NotFoundError

PREFIX = "/console/"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
}
# Pages are small and change with the package: revalidate each load (the ETag makes it cheap).
CACHE = "no-cache"


def web_root() -> Path:
    """The folder the console's files ship in."""
    return Path(str(resources.files("mnemex") / "web"))


def _file(relative: str) -> Response:
    root = web_root().resolve()
    path = (root / relative).resolve()
    if root not in path.parents or not path.is_file() or path.suffix not in TYPES:
        raise NotFoundError("file", relative)
    return FileResponse(path, media_type=TYPES[path.suffix], headers={"Cache-Control": CACHE})


async def index(request: Request) -> Response:
    """GET /: the console's one page."""
    return _file("index.html")


async def asset(request: Request) -> Response:
    """GET /console/{path}: a script, style sheet or vendored library of the console."""
    return _file(request.path_params["path"])


def routes() -> list[BaseRoute]:
    """The console's routes, mounted beside the API."""
    return [Route("/", index), Route(PREFIX + "{path:path}", asset)]
