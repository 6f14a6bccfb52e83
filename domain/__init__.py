"""Pure game rules: no I/O, no clock, no randomness of its own (a test enforces it)."""
