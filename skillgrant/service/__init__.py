"""``skillgrant serve``: the grant service, one long-running process answering hooks (Claude
Code's ``http`` hooks) and pipelines (the library's calls) over HTTP on loopback.

Needs the ``serve`` extra (FastAPI, uvicorn). server.py runs it; guard.py checks every request
before the application (app.py) sees it; plans.py holds and reloads the plans; operations.py
is what each endpoint does; docs/service.md has the contract.
"""
