"""``python -m parlour.rl.encoding``: every game's encoding table, as docs/rl.md shows it."""

from parlour.rl import platform
from parlour.rl.encoding import default_encoder, markdown

for game_id in platform.games():
    table = markdown(default_encoder(game_id))
    print(f"### {platform.game(game_id).name} (`{game_id}`)\n\n{table}\n")
