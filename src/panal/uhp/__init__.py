"""The Universal Hive Protocol: panal as an engine (``panal uhp``) and as a client of engines."""
