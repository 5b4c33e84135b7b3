"""The ``skillgrant`` command line (semantics §8).

    entry      the console script: reads a check/apply command line without typer, or hands it on
    console    exit statuses (``exit_status``), the exception guard, output, colour, paths
    run        check / apply as the command line runs them: plan, files, report, status
    batch      check / apply on one file, wherever it is done
    pool       the worker processes of ``--jobs``
    options    the typer side: common options and per-run state
    app        the typer app: check, apply, explain, schema
    review     the typer commands lint and diff
"""
