"""Each game's web files, from the game's folder: ``GET /static/games/<folder>/<file>``
serves the table's script and style, the lobby picture and the how-to figures its spec
names (:meth:`~parlour.registry.GameSpec.web_files`), and nothing else of the folder (its
Python modules and pages are not the page's to fetch). Included before the ``/static``
mount of the shared scripts, whose path it shares."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from parlour.registry import GAME_FILES, folder_name, game_ids, spec

router = APIRouter(include_in_schema=False)

MEDIA = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml"}


@cache
def served() -> dict[tuple[str, str], Path]:
    """Every game's web files by (folder, file name)."""
    return {(folder_name(g), path.relative_to(spec(g).folder).as_posix()): path
            for g in game_ids() for path in spec(g).web_files()}


@router.get(f"/static/{GAME_FILES}/{{folder}}/{{name:path}}")
async def game_file(folder: str, name: str) -> Response:
    path = served().get((folder, name))
    if path is None or not path.is_file():
        return Response(status_code=404)
    return FileResponse(path, media_type=MEDIA.get(path.suffix))
