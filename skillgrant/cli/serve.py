"""``skillgrant serve`` (issue 15), registered on the app of cli/app.py by
``register_serve_command``. The service itself is skillgrant/service/; it needs the ``serve``
extra, loaded only when the command runs.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..limits import MAX_REQUEST_BODY_BYTES
from .options import DebugOpt, PlanKind, guard


def serve(
    ctx: typer.Context,
    plan: Annotated[list[str], typer.Option(
        "--plan", "-p", metavar="[NAME=]PLAN", show_default=False,
        help="A plan to serve, by NAME (default: the file's stem, or a SKILL.md's folder). "
             "Repeat for more.")],
    plan_kind: Annotated[PlanKind, typer.Option(
        "--plan-kind", help="How to read each --plan.")] = PlanKind.auto,
    host: Annotated[str, typer.Option(
        help="The IP address to listen on. Anything but loopback needs --token-env.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="0 takes a free port.")] = 8750,
    token_env: Annotated[str | None, typer.Option(
        "--token-env", metavar="VAR", help="The environment variable holding the bearer "
        "token every request must send (at least 16 characters).")] = None,
    allow_host: Annotated[list[str] | None, typer.Option(
        "--allow-host", metavar="NAME", help="Another name the Host header may give.")
    ] = None,
    audit_log: Annotated[str | None, typer.Option(
        "--audit-log", metavar="FILE", help="JSON Lines of every hook decision, as "
        "skillgrant hook writes them.")] = None,
    max_body_bytes: Annotated[int, typer.Option(
        "--max-body-bytes", min=1, help="The largest request body read.")
    ] = MAX_REQUEST_BODY_BYTES,
    read_timeout: Annotated[float, typer.Option(
        "--read-timeout", min=0.1, help="Seconds a request's headers, and then its body, may "
        "take to arrive.")] = 10.0,
    handler_timeout: Annotated[float, typer.Option(
        "--handler-timeout", min=0.1, help="Seconds a request's work may take; past it a hook "
        "request is denied.")] = 10.0,
    poll: Annotated[float, typer.Option(
        min=0, help="Seconds between checks of the plan files for changes (0: only on "
        "SIGHUP).")] = 1.0,
    observe: Annotated[bool, typer.Option(
        "--observe", help="Decide and log every hook call (\"observed\": true) and deny "
        "none: to gather evidence for skillgrant suggest. Not enforcement.")] = False,
    print_config: Annotated[bool, typer.Option(
        "--print-config", help="Print Claude Code's http hook settings for the first plan and "
        "exit.")] = False,
    debug: DebugOpt = False,
) -> None:
    """Serve the grant service: hook decisions (POST /v1/hook/NAME) and the library's calls
    over HTTP, against the plans given. SIGHUP reloads the plans; SIGTERM stops it gracefully.
    """
    with guard(ctx, debug):
        from ..service.plans import parse_spec
        from ..service.server import ServeOptions, StartError

        try:
            specs = [parse_spec(p, plan_kind.value) for p in plan]
        except ValueError as e:
            raise StartError(str(e)) from None
        if observe and audit_log is None:
            raise StartError("--observe needs --audit-log: observing logs, and denies nothing")
        options = ServeOptions(specs, host, port, token_env, tuple(allow_host or ()),
                               audit_log, max_body_bytes, read_timeout, handler_timeout, poll,
                               observe=observe)
        if print_config:
            from ..service.config import kept_note, snippet
            from ..service.plans import load_served
            from ..service.server import token
            from .run import warn_about

            token(options)  # the same refusals as serving: the snippet must work
            pins = []
            for spec in specs:  # each plan loads as serving loads it, or nothing is printed
                try:
                    served = load_served(spec)
                except OSError as e:
                    raise StartError(f"{spec.path}: cannot read the plan: {e}") from None
                warn_about(served.plan, spec.path)
                pins.append(served.digest.removeprefix("sha256:"))
            text, note = snippet(host, port, [s.name for s in specs], token_env, pins[0])
            if observe:
                from ..gate.observe import CONFIG_NOTE

                note = f"{CONFIG_NOTE}\n{note}"
            note += kept_note(audit_log)
            typer.echo(text, nl=False)
            typer.echo(note, nl=False, err=True)
            return
        try:
            import fastapi  # noqa: F401
            import uvicorn  # noqa: F401

            from ..service.server import run
        except ImportError:
            from .extras import install_hint

            raise StartError("skillgrant serve needs the serve extra (FastAPI and uvicorn); "
                             f"install it with: {install_hint('serve')}") from None
        raise typer.Exit(run(options))


def register_serve_command(app: typer.Typer) -> None:
    app.command()(serve)
    app.command("session-start")(session_start)


def session_start(
    url: Annotated[str, typer.Argument(metavar="URL", help="The service's /v1/sessions URL.")],
    token_env: Annotated[str | None, typer.Option(
        "--token-env", metavar="VAR", help="The environment variable holding the service's "
        "bearer token.")] = None,
) -> None:
    """Claude Code's SessionStart hook for `skillgrant serve` (printed by serve
    --print-config): posts the session's npm variables with its session_id, read from the
    payload on standard input. The service denies the calls of a session that did not."""
    from ..service.client import session_start as post

    raise typer.Exit(post(url, token_env))
