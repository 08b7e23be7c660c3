"""The ``parlour`` command: play, simulate, tournament, analyse, replay, review, rules, games,
serve."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from parlour.console import output_console
from parlour.engine import OptionError, format_options, parse_option_pairs
from parlour.games import game_ids, get_game
from parlour.i18n import LANGUAGES, Translator, from_environment, normalize, render_error
from parlour.progress import DEFAULT_INTERVAL, INTERVAL_VARIABLE, progress
from parlour.registry import spec


def _lang(args: argparse.Namespace) -> str:
    """The language asked for with ``--lang`` (``id``, ``pt-BR``, ``pt``), else the one of
    ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``."""
    asked = getattr(args, "lang", None)
    if not asked:
        return from_environment()
    lang = normalize(asked)
    if lang is None:
        raise OptionError("no language {asked}: choose from {known}", asked=asked,
                          known=", ".join(code.replace("_", "-") for code in LANGUAGES))
    return lang


def _options(pairs: Sequence[str] | None) -> dict[str, Any]:
    return dict(parse_option_pairs(pairs or []))


def _bots(text: str) -> list[str]:
    return [b.strip() for b in text.split(",") if b.strip()]


# ----------------------------------------------------------------------------- commands
def cmd_play(args: argparse.Namespace) -> int:
    from parlour.terminal import play

    game = get_game(args.game)
    options = _options(args.option)
    game.resolve_options(options)
    play(game.id, seed=args.seed, seat=args.seat, bots=args.bots, options=options,
         seats=args.players, record_dir=args.record, lang=_lang(args))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from parlour.arena import simulate

    game = get_game(args.game)
    with progress(f"simulating {game.name}", "games", args.games,
                  transient=args.json) as bar:
        summary = simulate(game.id, args.games, args.seed, _bots(args.bots),
                           _options(args.option), args.seats, args.jobs, args.record,
                           progress=bar.advance)
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"{summary['games']} games of {game.name}, seed {args.seed}")
    for col in ("Seat", "Bot", "Wins", "Win rate (95% CI)", "Mean points"):
        table.add_column(col, justify="left" if col in ("Seat", "Bot") else "right")
    for s, kind in enumerate(summary["bots"]):
        low, high = summary["win_interval"][s]
        table.add_row(game.seat_name(s, len(summary["bots"])), kind, str(summary["wins"][s]),
                      f"{summary['win_rate'][s]:.1%} ({low:.1%}-{high:.1%})",
                      f"{summary['mean_points'][s]:.1f}")
    output_console().print(table)
    print(f"{summary['draws']} drawn; {summary['games_per_second']} games/s")
    longest = summary["longest_round"]
    if longest is not None:
        print(f"longest round: {longest['actions']} actions (game {longest['game']}, round "
              f"{longest['round']}) of {summary['rounds']} rounds; ended by a safety stop: "
              f"{summary['rounds_stopped']} rounds, {summary['games_stopped']} games")
    if len(summary["bots"]) == 1 and summary["wins"][0]:
        print(f"mean score of the games won: {summary['mean_points_of_wins'][0]}")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from parlour.analysis import analysis_for

    game = get_game(args.game)
    study = analysis_for(game.id)
    settings: dict[str, Any] = {"options": _options(args.option)}
    if args.bots:
        settings["bots"] = _bots(args.bots)
    if args.budget is not None:
        settings["budget"] = args.budget
    with progress(f"analysing {game.name}", "deals", args.games, transient=args.json) as bar:
        summary = study.analyse(args.games, args.seed, args.jobs, bar.advance, **settings)
    if args.png:
        study.draw(summary, args.png)
    if args.json:
        print(json.dumps(summary))
    else:
        study.report(summary, output_console())
        if args.png:
            print(f"drew {args.png}")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from parlour.arena import default_jobs, plot_tournament, tournament, tournament_size

    game = get_game(args.game)
    kinds = _bots(args.bots)
    jobs = args.jobs or default_jobs()
    with progress(f"{game.name}: {' vs '.join(kinds)}", "games",
                  tournament_size(kinds, args.games), transient=args.json) as bar:
        summary = tournament(game.id, kinds, args.games, args.seed, _options(args.option),
                             args.seats, jobs, progress=bar.advance)
    if args.plot:
        plot_tournament(summary, args.plot)
        summary["plot"] = str(args.plot)
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"{summary['games']} games of {game.name} (each deal in "
                        f"{len(summary['seatings'])} seatings), seed {args.seed}")
    for col in ("Bot", "Won", "Shared", "Score", "Rate (95% CI)"):
        table.add_column(col, justify="left" if col == "Bot" else "right")
    for kind, r in summary["results"].items():
        low, high = r["interval"]
        table.add_row(kind, str(r["wins"]), str(r["shared"]), f"{r['score']:g}",
                      f"{r['rate']:.1%} ({low:.1%}-{high:.1%})")
    output_console().print(table)
    if "elo" in summary:
        e = summary["elo"]
        print(f"{e['of']} is {e['difference']:+.0f} Elo against {e['against']} "
              f"(95% CI {e['interval'][0]:+.0f} to {e['interval'][1]:+.0f}); "
              f"duplicate pairs won both/split/neither: {summary['pairs']['both']}/"
              f"{summary['pairs']['split']}/{summary['pairs']['neither']}")
    print(f"{summary['seconds']} s with {jobs} jobs" + (f"; plot: {args.plot}" if args.plot
                                                         else ""))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from parlour.record import read_record

    record, state = read_record(args.file)
    result = state.outcome.text() if state.outcome else "*"
    if args.json:
        print(json.dumps({"game": record.game_id, "seed": state.seed,
                          "actions": len(state.history), "result": result,
                          "outcome": state.outcome.to_json() if state.outcome else None,
                          "verified": True}))
    else:
        print(f"{args.file}: {record.game_id}, {len(state.history)} actions, result {result} "
              f"(verified)")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from parlour.analysis.review import MARKS, review_record
    from parlour.record import parse_record, record_players

    short = {"inaccuracy": "Inacc."}

    record = parse_record(args.file.read_text(encoding="utf-8"))
    seats = None if args.seat is None else [args.seat]
    with progress(f"reviewing {args.file.name}", "decisions", transient=True) as bar:
        review = review_record(record, seats, budget=args.budget, seed=args.seed,
                               progress=bar.update)
    if args.json:
        print(json.dumps(review.to_json()))
        return 0
    game = get_game(review.game)
    names = record_players(record)
    seat_count = int(record.tags["Seats"])
    effort = (f"{review.budget} iterations a decision" if review.budget
              else "its strongest level")
    table = Table(title=f"Review of {args.file.name}: {game.name}, by {review.reviewer} "
                        f"({effort}, seed {review.review_seed})")
    for col in ("#", "Seat", "Played", "Better", "Chance", "Best", "Loss", "Mark"):
        table.add_column(col, justify="right" if col in ("#", "Chance", "Best", "Loss")
                         else "left")
    styles = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
    for d in review.marked():
        table.add_row(str(d.index + 1), _seat_name(game.seat_name(d.seat, seat_count),
                                                   names, d.seat),
                      d.played, d.best, f"{d.chance:.0%}", f"{d.best_chance:.0%}",
                      f"{d.loss:.1%}", f"[{styles[d.mark]}]{d.mark}[/]")
    console = output_console()
    if table.row_count:
        console.print(table)
    else:
        console.print("No marked decisions.")
    summary = Table(title="Accuracy (forced decisions are not counted)")
    marks = [short.get(m, m.capitalize()) for m in MARKS]
    for col in ("Seat", "Judged", *marks, "Accuracy", "Loss"):
        summary.add_column(col, justify="left" if col == "Seat" else "right")
    for s in review.summaries:
        summary.add_row(_seat_name(game.seat_name(s.seat, len(names)), names, s.seat),
                        str(s.judged), *(str(s.marks[m]) for m in MARKS),
                        f"{s.accuracy:.0%}", f"{s.mean_loss:.1%}")
    console.print(summary)
    console.print(f"Marks by the loss in the {review.unit}: inaccuracy from "
                  f"{review.thresholds.inaccuracy:.0%}, mistake from "
                  f"{review.thresholds.mistake:.0%}, blunder from "
                  f"{review.thresholds.blunder:.0%}.")
    return 0


def _seat_name(seat_name: str, players: list[str], seat: int) -> str:
    player = players[seat] if seat < len(players) and players[seat] else ""
    return escape(f"{seat_name} ({player})" if player else seat_name)


def cmd_rules(args: argparse.Namespace) -> int:
    """How to play the game in the terminal's language, for the options given; with
    ``--full`` the full rules (every decision), in that language where translated."""
    from rich.markdown import Markdown

    from parlour import fullrules
    from parlour.howto import howto_markdown

    t = Translator(_lang(args))
    game = get_game(args.game)
    console = output_console()
    if not args.full:
        text = howto_markdown(game.id, t.lang, _options(args.option), terminal=True)
        console.print(Markdown(_without_figures(text)))
        console.print(t("[dim]Full rules: parlour rules {game} --full[/]", game=game.id))
        return 0
    page, written_in = spec(game.id).full_rules(t.lang)
    if not page.exists():
        print(t("no rules page for {game} at {page}", game=game.id, page=str(page)),
              file=sys.stderr)
        return 1
    console.rule(t("[bold]Full rules of {game}[/]", game=t.p("game", game.name)))
    if written_in != t.lang:
        console.print(t("[dim]The full specification is written in English.[/]"))
    console.print(Markdown(fullrules.markdown(page)))
    return 0


def _without_figures(markdown: str) -> str:
    """A page's figures as their captions, in italics: a terminal draws no pictures."""
    return re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"*\1*", markdown)


def cmd_games(args: argparse.Namespace) -> int:
    games = [get_game(g).describe() for g in game_ids()]
    if args.json:
        print(json.dumps(games))
        return 0
    t = Translator(_lang(args))
    console = output_console()
    for g in games:
        lo, hi = g["seats"]
        english_name: str = g["name"]
        name = t.p("game", english_name)
        title = (t.n("[bold]{id}[/] - {name}, {n} seat", "[bold]{id}[/] - {name}, {n} seats",
                     lo, id=g["id"], name=name) if lo == hi else
                 t("[bold]{id}[/] - {name}, {low}-{high} seats", id=g["id"], name=name,
                   low=lo, high=hi))
        table = Table(title=title, title_justify="left", show_header=bool(g["options"]),
                      box=None)
        table.add_column(t("option"), style="bold")
        table.add_column(t("default"), justify="right")
        table.add_column(t("meaning"))
        for option in get_game(g["id"]).options:
            default = format_options({"x": option.default}).removeprefix("x=")
            meaning = (f"{escape(t(option.help))} "
                       f"[dim]({escape(t.render(option.values_message()))})[/]")
            table.add_row(option.name, default, meaning)
        console.print(table)
        console.print()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from parlour.server.app import serve
        from parlour.server.storage.store import default_url
    except ImportError as err:
        print(f"parlour serve needs the web extra (pip install -e '.[web]'): {err}",
              file=sys.stderr)
        return 2
    from pydantic import ValidationError

    from parlour.server.edge.limits import Limits

    if args.bot_pause < 0:
        raise ValueError("--bot-pause must be 0 or more seconds")
    given = {k.removeprefix("limit_"): v for k, v in vars(args).items()
             if k.startswith("limit_") and v is not None}
    try:
        limits = Limits(**given)  # flags first, then PARLOUR_<NAME>, then the defaults
    except ValidationError as err:
        for e in err.errors(include_url=False):
            flag = "--" + str(e["loc"][0]).replace("_", "-") if e["loc"] else "a limit"
            print(f"parlour serve: {flag}: {e['msg']}", file=sys.stderr)
        return 2
    from parlour.server.storage.schema import SchemaError, check

    url = args.db or default_url()
    try:
        check(url)
    except SchemaError as err:
        print(f"parlour serve: {err}", file=sys.stderr)
        return 2
    from parlour.server.app import TABLE_SETTINGS

    tables = {name: getattr(args, name) for name in TABLE_SETTINGS
              if getattr(args, name, None) is not None}
    if any(value < 0 for value in tables.values()):
        print("parlour serve: the table settings are 0 or more", file=sys.stderr)
        return 2
    redis_url = args.redis or os.environ.get("PARLOUR_REDIS") or None
    prefix = args.redis_prefix or os.environ.get("PARLOUR_REDIS_PREFIX") or "parlour:"
    if redis_url is not None and url.startswith("sqlite"):
        print("parlour serve: --redis joins processes that share one database server "
              "(postgresql://...), not a SQLite file", file=sys.stderr)
        return 2
    serve(args.host, args.port, url, args.bot_pause, args.rate, limits=limits,
          redis_url=redis_url, redis_prefix=prefix, **tables)
    return 0


def add_limit_flags(p: argparse.ArgumentParser) -> None:
    """One flag per server limit (``--max-body``...) and table setting
    (``--waiting-expiry``...), if the web extra is installed."""
    try:
        from parlour.server.app import TABLE_SETTINGS
        from parlour.server.edge.limits import Limits
        from parlour.server.settings import Settings
    except ImportError:
        return
    life = p.add_argument_group("tables", "the life of tables and bot capacity; see "
                                "docs/operations.md")
    defaults = Settings(db_url="")
    for name, (kind, meaning) in TABLE_SETTINGS.items():
        default = getattr(defaults, name)
        life.add_argument("--" + name.replace("_", "-"), type=kind, metavar="N",
                          help=meaning + ("" if default is None else f" (default {default:.0f})"))
    group = p.add_argument_group("limits", "each also PARLOUR_<NAME> in the environment; "
                                 "see docs/operations.md")
    for name, info in Limits.model_fields.items():
        default = info.get_default(call_default_factory=True)
        shown = ",".join(default) if isinstance(default, list) else default
        group.add_argument("--" + name.replace("_", "-"), dest="limit_" + name,
                           metavar="VALUE",
                           help=f"{info.description} (default {shown or 'none'})")


def cmd_db(args: argparse.Namespace) -> int:
    try:
        from parlour.server.storage.database import make_engine
        from parlour.server.storage.schema import head, revision, upgrade_url
        from parlour.server.storage.store import default_url
    except ImportError as err:
        print(f"parlour db needs the web extra (pip install -e '.[web]'): {err}",
              file=sys.stderr)
        return 2
    url = args.db or default_url()
    if args.action == "backup":
        from parlour.server.storage.backup import BackupError, backup

        if not args.to:
            print("parlour db backup: name the file to write with --to FILE", file=sys.stderr)
            return 2
        try:
            print(backup(url, Path(args.to)))
        except BackupError as err:
            print(f"parlour db backup: {err}", file=sys.stderr)
            return 1
        return 0
    if args.action == "upgrade":
        before, after = upgrade_url(url)
        print(f"database upgraded: schema {before or 'none'} -> {after}" if before != after
              else f"database already at schema {after}")
        return 0
    engine = make_engine(url)
    try:
        current = revision(engine)
    finally:
        engine.dispose()
    print(f"database schema {current or 'none'}; this server's is {head()}")
    return 0 if current == head() else 1


def cmd_admin(args: argparse.Namespace) -> int:
    """``parlour admin rename|ban|unban|log``: an operator's actions on accounts, each kept
    in the admin log (docs/accounts.md)."""
    try:
        from parlour.server.edge.protocol import ProtocolError
        from parlour.server.people import accounts
        from parlour.server.storage.database import make_engine
        from parlour.server.storage.schema import SchemaError, check
        from parlour.server.storage.store import default_url
    except ImportError as err:
        print(f"parlour admin needs the web extra (pip install -e '.[web]'): {err}",
              file=sys.stderr)
        return 2
    url = args.db or default_url()
    try:
        check(url)
    except SchemaError as err:
        print(f"parlour admin: {err}", file=sys.stderr)
        return 2
    engine = make_engine(url)
    try:
        if args.action == "log":
            for entry in accounts.admin_log(engine):
                when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(entry["at"]))
                print(f"{when} UTC  {entry['operator']}  {entry['action']}  "
                      f"account {entry['account']}: {entry['detail']}")
            return 0
        if args.action in WORD_ACTIONS:
            return admin_words(engine, args.action, args.name)
        if not args.name:
            print("parlour admin: name the account", file=sys.stderr)
            return 2
        if args.action == "rename":
            if not args.new_name:
                print("parlour admin rename: give the new name too", file=sys.stderr)
                return 2
            new = accounts.admin_rename(engine, args.name, args.new_name)
            print(f"{args.name} is now called {new}")
        else:
            accounts.admin_ban(engine, args.name, args.action == "ban", args.reason or "")
            print(f"{args.name} is {'banned' if args.action == 'ban' else 'no longer banned'}")
        return 0
    except ProtocolError as err:
        print(f"parlour admin: {err.message}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()


#: ``parlour admin``'s actions on table talk's word filter (parlour/server/play/talk_words.py).
WORD_ACTIONS = ("words", "word-add", "word-allow", "word-drop")


def admin_words(engine: Any, action: str, word: str | None) -> int:
    """``parlour admin words`` lists the moderators' changes to the word filter; ``word-add
    WORD`` filters one more word (or phrase), ``word-allow WORD`` lets a listed one through,
    ``word-drop WORD`` undoes either."""
    from parlour.server.people.accounts import operator_name
    from parlour.server.play import talk_words

    if action == "words":
        for entry in talk_words.choices(engine):
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(entry["created"]))
            what = "allowed" if entry["allowed"] else "filtered"
            print(f"{when} UTC  {entry['operator']}  {what}  {entry['word']}")
        return 0
    if not word:
        print(f"parlour admin {action}: give the word", file=sys.stderr)
        return 2
    allowed = {"word-add": False, "word-allow": True, "word-drop": None}[action]
    try:
        kept = talk_words.choose(engine, word, allowed, operator_name())
    except ValueError as err:
        print(f"parlour admin {action}: {err}", file=sys.stderr)
        return 2
    said = {False: "is filtered", True: "is let through", None: "is as the lists have it"}
    print(f"{kept} {said[allowed]} (every server within a minute)")
    return 0


def cmd_puzzles(args: argparse.Namespace) -> int:
    if args.action == "solve":
        from parlour.puzzles.terminal import pick, solve

        if args.theme is not None and args.game is None:
            raise OptionError("name the --game whose --theme you want")
        solve(pick(args.game, args.theme, args.seed), _lang(args))
        return 0
    from parlour.puzzles.mine_command import mine

    return mine(args)


def cmd_menu(args: argparse.Namespace) -> int:
    """No command: pick a game and play it at the terminal."""
    from parlour.terminal import play

    t = Translator(_lang(args))
    console = output_console()
    ids = game_ids()
    console.print(t("[bold]Parlour[/] - choose a game:"))
    for i, g in enumerate(ids, start=1):
        console.print(f"  {i}. {t.p('game', get_game(g).name)}")
    try:
        choice = console.input(t("Game [1]: ")).strip() or "1"
    except (EOFError, KeyboardInterrupt):
        return 0
    if not choice.isdigit() or not 1 <= int(choice) <= len(ids):
        console.print("[red]" + t("choose a number from 1 to {last}", last=len(ids)) + "[/]")
        return 1
    play(ids[int(choice) - 1], console=console, lang=t.lang)
    return 0


# ----------------------------------------------------------------------------- parser
GAME_HELP = "the game's id, as `parlour games` lists them (spades, foursquare...)"
LANG_HELP = ("the language to play in: en, id or pt-BR (default: from LANG); the typed "
             "notation stays the English codes")

def build_parser(serving: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; ``serving=False`` leaves out `serve`'s limit flags, which
    take the web server's modules (a second or more to import) to list."""
    parser = argparse.ArgumentParser(
        prog="parlour", description="A card-game parlour. With no command: choose a game and "
        "play it at the terminal.",
        epilog="Long commands (simulate, tournament, analyse, review) show their progress on "
        f"standard error: a bar on a terminal, else a line every {DEFAULT_INTERVAL:g} seconds "
        f"({INTERVAL_VARIABLE} sets how many). `parlour COMMAND --help` describes a command.")
    parser.add_argument("--lang", help=LANG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="command")

    p = sub.add_parser("play", help="play a game at the terminal against bots")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--seed", type=int, help="deal number (default: a random one)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--bots", default="rule", help="bot kinds for the other seats, e.g. rule")
    p.add_argument("--seats", "--players", dest="players", type=int,
                   help="number of seats, for games that vary")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    p.add_argument("--record", type=Path, metavar="DIR", help="save the record in DIR")
    p.add_argument("--lang", default=argparse.SUPPRESS, help=LANG_HELP)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="play many games between bots and summarise")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: game i is dealt from "
                   "it and i, so a run is repeatable (default 0)")
    p.add_argument("--bots", default="random", help="bot kinds, one per seat, repeated to "
                   "fill the table, e.g. rule,random (default random)")
    p.add_argument("--seats", type=int, help="number of seats, for games that vary")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--record", type=Path, metavar="DIR", help="write every game's record")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("tournament", help="bot kinds against each other, duplicate format")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--bots", required=True, help="two or more kinds, e.g. ismcts,rule")
    p.add_argument("--games", type=int, default=100, help="how many games, rounded up so "
                   "that each deal is played once in every seating (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--seats", type=int, help="number of seats, for games that vary")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    p.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    p.add_argument("--plot", type=Path, metavar="FILE", help="draw the results as a PNG")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_tournament)
    p = sub.add_parser("analyse", help="study a game in depth (foursquare: how winnable "
                       "deals are)")
    p.add_argument("game", help="the game to study (foursquare)")
    p.add_argument("--games", type=int, default=2000, help="deals to study (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="deal i is simulate's game i")
    p.add_argument("--bots", help="bot kinds to compare (default: the study's)")
    p.add_argument("--budget", type=int, help="search budget per deal, in boards")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--png", type=Path, metavar="FILE", help="draw the results into FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("replay", help="replay a record, verify its result")
    p.add_argument("file", type=Path, metavar="RECORD", help="a game's record (from play "
                   "--record, simulate --record or the web parlour)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("review", help="the strong bot judges every decision of a record")
    p.add_argument("file", type=Path, metavar="RECORD", help="the game's record")
    p.add_argument("--seat", type=int, help="review this seat only (default: every seat)")
    p.add_argument("--budget", type=int, help="search iterations a decision (default: twice "
                   "the hard level's)")
    p.add_argument("--seed", type=int, default=0, help="the review's seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the review as one JSON object")
    p.set_defaults(func=cmd_review)

    p = sub.add_parser("rules", help="how to play a game (--full: the full rules)")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a table's option, shown on the page (target=300)")
    p.add_argument("--full", action="store_true",
                   help="the full rules (every decision)")
    p.add_argument("--lang", default=argparse.SUPPRESS, help=LANG_HELP)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("serve", help="serve the web parlour (lobby and tables in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                   "127.0.0.1; 0.0.0.0 lets other machines in)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--db", metavar="URL", help="SQLAlchemy database URL (default: a SQLite "
                   "file in ./data; postgresql://... works too)")
    p.add_argument("--bot-pause", type=float, default=0.8, metavar="SECONDS",
                   help="the least time a bot's move takes, so people can follow (default "
                   "0.8)")
    p.add_argument("--rate", type=float, metavar="N", help="messages per second a "
                   "connection may send (default 5; load tests raise it)")
    p.add_argument("--redis", metavar="URL", help="Redis that joins several serve processes "
                   "on one PostgreSQL database (redis://host:6379/0; PARLOUR_REDIS): any "
                   "process serves any table; see docs/deploy.md")
    p.add_argument("--redis-prefix", metavar="TEXT", help="prefix of the Redis keys and "
                   "channels (default parlour:; PARLOUR_REDIS_PREFIX), for several parlours on "
                   "one Redis")
    if serving:
        add_limit_flags(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("db", help="the web parlour's database: its schema revision, "
                       "upgrading it (back it up first), backing it up")
    p.add_argument("action", choices=("status", "upgrade", "backup"),
                   help="status: the schema's revision (exit 1 if it is behind); upgrade: "
                   "bring it up to this server's; backup: copy the database to --to FILE")
    p.add_argument("--to", metavar="FILE", help="backup: the file to write (SQLite: a "
                   "database file; PostgreSQL: a pg_dump custom-format archive)")
    p.add_argument("--db", metavar="URL", help="SQLAlchemy database URL (default: the SQLite "
                   "file of parlour serve)")
    p.set_defaults(func=cmd_db)

    p = sub.add_parser("admin", help="an operator's actions on accounts: rename, ban, unban "
                       "(each kept in the admin log), and that log; and on table talk's word "
                       "filter")
    p.add_argument("action", choices=("rename", "ban", "unban", "log", *WORD_ACTIONS),
                   help="rename NAME NEW_NAME, ban NAME, unban NAME, or log (the actions so "
                   "far); words (the word filter's changes), word-add WORD, word-allow WORD "
                   "(let a listed word through), word-drop WORD (undo either)")
    p.add_argument("name", nargs="?", help="the account's name (look-alikes find it too), or "
                   "the word")
    p.add_argument("new_name", nargs="?", help="rename: the new name")
    p.add_argument("--reason", help="ban, unban: why (kept in the log)")
    p.add_argument("--db", metavar="URL", help="SQLAlchemy database URL (default: the SQLite "
                   "file of parlour serve)")
    p.set_defaults(func=cmd_admin)

    p = sub.add_parser("puzzles", help="solve card puzzles at the terminal; mine: find more "
                       "in bots' games (or people's, in a parlour's database)")
    p.add_argument("action", nargs="?", choices=("solve", "mine"), default="solve",
                   help="solve (the default): the shipped puzzles, one after another; mine: "
                   "find puzzles and write them (--ship, --out) or keep them (--db)")
    p.add_argument("--game", help="solve: only this game's puzzles; mine: the game to mine "
                   "(required)")
    p.add_argument("--theme", help="solve: only puzzles of this theme (e.g. cover-nil)")
    p.add_argument("--seed", type=int, help="solve: the order of the puzzles; mine: the "
                   "run's seed (default 0)")
    p.add_argument("--games", type=int, default=50, help="mine: bot games to play and mine "
                   "(default 50)")
    p.add_argument("--bots", default="rule", help="mine: the bots at the seats of those "
                   "games (default rule)")
    p.add_argument("--budget", type=int, help="mine: playouts of the first judgement of a "
                   "position (default: the review's; fewer sieve faster); the two verifying "
                   "ones take twice the review's")
    p.add_argument("--jobs", type=int, default=1, help="mine: worker processes (default 1)")
    p.add_argument("--ship", action="store_true", help="mine: add what is found to the "
                   "game's shipped set (its folder's puzzles.json.gz)")
    p.add_argument("--out", type=Path, metavar="FILE", help="mine: write what is found to "
                   "FILE (a puzzles.json.gz)")
    p.add_argument("--db", metavar="URL", help="mine: keep what is found in this parlour's "
                   "database (default with --tables: the SQLite file of parlour serve)")
    p.add_argument("--tables", action="store_true", help="mine: the matches people finished "
                   "at the parlour's tables in the last --days (a daily deal's once its day "
                   "is over) instead of bots' games")
    p.add_argument("--days", type=float, default=1.0, help="mine --tables: how far back "
                   "(default 1 day)")
    p.add_argument("--lang", default=argparse.SUPPRESS, help=LANG_HELP)
    p.set_defaults(func=cmd_puzzles)

    p = sub.add_parser("games", help="list the games, their seats and options")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.add_argument("--lang", default=argparse.SUPPRESS, help=LANG_HELP)
    p.set_defaults(func=cmd_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(serving="serve" in words)
    args = parser.parse_args(words)
    func = getattr(args, "func", cmd_menu)
    try:
        return func(args)
    except (OptionError, ValueError, OSError) as err:
        try:
            lang = _lang(args)
        except OptionError:
            lang = "en"
        print(f"parlour: {render_error(err, lang)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
