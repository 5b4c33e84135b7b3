"""Renderers: verdicts and findings in, text out; no decisions.

    escape     showing untrusted text safely, JSON text, terminal colour
    ci         GitHub workflow commands and SARIF 2.1.0, shared by every command
    check      check / apply / explain: text, GitHub, SARIF
    jsondoc    check / apply / explain: the JSON document, written a file at a time
    review     lint / diff: every format
"""
