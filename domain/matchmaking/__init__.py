"""Matchmaking rules: who may share a table (a rating window that widens with the wait), how
waiting players are grouped into tables, and which bot level fills the seats left over. Pure:
the service hands in the players' ratings and how long each has waited."""
