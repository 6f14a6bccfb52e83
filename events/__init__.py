"""The event store on Postgres, the game repository and the command handler."""
