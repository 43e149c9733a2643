"""The front: text forms, the typer CLI, plots, interactive play."""
