"""Runtime profiles: under each runtime, what an entry means there."""
