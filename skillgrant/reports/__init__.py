"""Renderers: verdicts and findings in, text out; no decisions. The rules they name are
``skillgrant.rules``.

    escape     showing untrusted text safely, message wording, JSON text (the writers), colour
    markdown   Markdown for pull-request comments: code spans, escaped text, tables
    ci         GitHub workflow commands and SARIF 2.1.0, shared by every command
    results    what a check / apply run hands its renderers: FileResult, Run
    jsondoc    every JSON document's head; check / apply / explain's, written a file at a time
    check      check / apply / explain: text, GitHub, SARIF (the JSON and Markdown re-exported)
    check_markdown   check / apply: Markdown, a CI step summary
    lint       lint: text, JSON, Markdown, and the findings for GitHub and SARIF
    diff       diff: the same
    review     lint / diff: the one place a format is chosen
    schemas    the JSON Schema of every JSON document the command line writes
"""
