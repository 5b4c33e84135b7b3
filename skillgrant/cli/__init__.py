"""The ``skillgrant`` command line (SPEC §8).

    entry      the console script: reads a check/apply command line without typer
    console    exit statuses, the exception guard, terminal output, colour, paths
    run        check / apply as the command line runs them: plan, files, report, status
    batch      check / apply on one file, and on many (``--jobs``)
    pool       the worker processes of ``--jobs``
    options    the typer side: common options and per-run state
    app        the typer app: check, apply, explain, schema
    review     the typer commands lint and diff
"""
