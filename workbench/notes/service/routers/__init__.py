"""Routers of the HTTP API: notes (search and CRUD), admin (reindex, validate), health."""
