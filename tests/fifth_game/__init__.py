"""A fifth game, defined in the tests alone, to show what adding a game takes: its folder
(`high_card/`, as it would sit in domain/games/) and one registration line
(tests/test_adding_a_game.py adds it to a copy of the repository that way)."""
