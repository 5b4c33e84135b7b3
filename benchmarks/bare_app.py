"""The baseline of the ``serve`` section (issue 29): a bare FastAPI endpoint under uvicorn that
answers each hook payload with the bytes ``skillgrant serve`` answers it with, looked up in a
table (``BARE_ANSWERS``: a JSON file of payload → answer), and decides nothing.

    BARE_ANSWERS=answers.json python bare_app.py PORT
"""

from __future__ import annotations

import json
import os
import sys

import uvicorn
from fastapi import FastAPI, Request, Response

with open(os.environ["BARE_ANSWERS"], encoding="utf-8") as source:
    ANSWERS = {k.encode(): v.encode() for k, v in json.load(source).items()}
app = FastAPI()


@app.post("/v1/hook/bench")
async def hook(request: Request) -> Response:
    return Response(ANSWERS.get(await request.body(), b""), media_type="application/json")


if __name__ == "__main__":
    print(f"listening on http://127.0.0.1:{sys.argv[1]}", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), http="httptools",
                log_level="warning", access_log=False)
