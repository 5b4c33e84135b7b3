"""One module per semantic domain (SPEC §4). Each knows its language, its inclusion test and how
to build a witness; ``decide(submitted, approved, context) -> Outcome`` is the common shape, and
``approved`` holds only the grants the dispatcher found relevant."""
