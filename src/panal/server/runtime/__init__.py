"""What one server process runs on: the bus, the job queue, the heavy pool."""
