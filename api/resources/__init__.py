"""The API's resources, one blueprint each: games, players, game types, health and metrics."""
