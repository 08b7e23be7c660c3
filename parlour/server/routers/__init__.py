"""The server's routes, one router per part: the lobby, a table's HTTP API, the page and
the websocket (:func:`parlour.server.app.create_app` puts them together)."""
