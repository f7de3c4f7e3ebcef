"""The package version (also in pyproject.toml); datasets record it."""

__version__ = "0.1.0"
