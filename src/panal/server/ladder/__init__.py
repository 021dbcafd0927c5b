"""The engine ladder: bots play each other continuously, ranked by Bradley-Terry."""
