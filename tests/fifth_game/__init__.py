"""A fifth game, defined in the tests alone, to show what adding a game takes: a folder and one
registration line (tests/fifth_game/test_high_card.py registers it)."""
