"""One module per semantic domain (semantics §4). Each knows its language, its inclusion test and
how to build a witness, and has the same two functions: ``relevant(submitted, other, shell_tools)``
(which approved grants can cover a submitted one at all) and ``decide(submitted, approved,
context) -> Outcome``, where ``approved`` holds only the relevant grants. ``registry`` is the
one table the prover dispatches through."""
