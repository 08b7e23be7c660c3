"""The web parlour: a FastAPI server for tables in the browser.

``parlour serve`` runs it (:func:`parlour.server.app.serve`). The server is generic over
the engine contract: it knows games only through ``Game``/``State``, their views and
their action notation, and the page draws each game with its own table renderer
(``parlour/games/<game>/table.js``).
"""
