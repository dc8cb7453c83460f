"""Server administration: ``/admin``."""
