"""The HTTP floor of bench/web.py: a minimal Starlette JSON app on the same server stack as
`bridgelaw serve` (uvicorn, the same HTTP parser and event loop, N worker processes sharing one
socket, no access log, no lifespan), whose POST /api/rule reads the JSON body and answers a small
JSON document. What it serves a second is the most any app on this stack could; bench/web.py
prints bridgelaw's rate as a share of it.

    python bench/httpfloor.py PORT WORKERS HTTP
"""

from __future__ import annotations

import json
import sys

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

try:
    import orjson
    loads, dumps = orjson.loads, orjson.dumps
except ImportError:                      # pragma: no cover
    loads, dumps = json.loads, lambda data: json.dumps(data).encode()


async def rule(request: Request) -> Response:
    case = loads(await request.body())
    return Response(dumps({"title": case.get("title") if isinstance(case, dict) else None, "outcome": "floor"}),
                    media_type="application/json")


app = Starlette(routes=[Route("/api/rule", rule, methods=["POST"])])


def main() -> None:
    import uvicorn
    port, workers, http = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if http == "auto":
        try:
            import httptools  # noqa: F401
            http = "httptools"
        except ImportError:
            http = "h11"
    print(f"serving on http://127.0.0.1:{port}/", file=sys.stderr, flush=True)
    uvicorn.run("httpfloor:app", host="127.0.0.1", port=port, workers=workers, http=http, loop="auto",
                log_level="warning", access_log=False, server_header=False, proxy_headers=False,
                lifespan="off", app_dir=str(__import__("pathlib").Path(__file__).resolve().parent))


if __name__ == "__main__":
    main()
