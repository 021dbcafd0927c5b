"""E-mail from the server: an operator's SMTP settings, messages in the player's language, and
their sending off the event loop (docs/serving.md, "E-mail")."""
