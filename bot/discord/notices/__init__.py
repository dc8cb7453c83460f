"""Turn notices by direct message and their settings."""
