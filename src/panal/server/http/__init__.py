"""The HTTP and websocket layer: request bodies, error answers, guards, the UI's pages."""
