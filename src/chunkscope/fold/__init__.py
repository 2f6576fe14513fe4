"""The fold: ``RunState`` and one module per chunk family; the inspector's rows."""
