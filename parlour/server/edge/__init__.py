"""What meets the client: the listener (uvicorn's protocol), per-client limits, the one
error shape, the routes' dependencies, the websocket protocol's models, the reader's
language, metrics."""
