"""panal: Hive and Enjambre Tácticas in Python."""

__version__ = "0.1.0"
