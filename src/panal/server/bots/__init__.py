"""Bot accounts: owned by a person, signed in by an API token, rated in their own pool."""
