"""Shared reference data is reached through tests/shared_data.py."""
