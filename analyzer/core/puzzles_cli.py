"""``xianniu puzzles …``: positions with one right answer, proven by paired play-outs
(:mod:`analyzer.core.puzzles`, ``docs/puzzles.md``), kept in the player's library."""

from __future__ import annotations

import json
import time

import click

from .batchrun import RunInterrupted, checkpoint_path
from .checkpoint import TaskCheckpoint
from .cli_common import JSON_OPTION, LazyProgressBar, emit_json, interruptible
from .fileio import write_atomic
from .library import Library
from .library_cli import LIBRARY_OPTION
from .limits import OutFile, backend_option
from .puzzles import SET_FORMAT, MineReport, Puzzle
from .review import decision_seeds


@click.group(name="puzzles")
def puzzles() -> None:
    """Puzzles: positions where one action beats every other, proven (docs/puzzles.md)."""


def _game(name: str):
    from ..games import get_game

    return get_game(name)


@puzzles.command()
@click.option("--game", "game_name", required=True,
              help="The game, by its registered name (as its command group is called).")
@click.option("--hands", "n_hands", type=click.IntRange(1, 100_000), default=20,
              show_default=True, help="Hands of the default player's self-play to mine.")
@click.option("--from-library", "from_library", is_flag=True,
              help="Mine your own hands in the library instead (the game's hands with your "
                   "seat known): your decisions where another action was surely better.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Root seed: the hands, every advice and every check.")
@click.option("--out", "out_path", type=OutFile(), default=None,
              help="Also write the verified puzzles here, JSON lines after a line naming the "
                   "command (whole or not at all): a puzzle set. The hands mined are "
                   "checkpointed beside it until the run ends.")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted run with the same arguments and --out: the hands "
                   "it finished are not mined again (--hands may differ: the hands are the "
                   "same).")
@backend_option("Mine the hands here, one after another, or as tasks on a Dask cluster "
                "(the same puzzles either way).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address (default: a LocalCluster on this machine).")
@click.option("--quiet", is_flag=True, help="No progress.")
@LIBRARY_OPTION
@JSON_OPTION
def mine(game_name: str, n_hands: int, from_library: bool, seed: int, out_path: str | None,
         resume: bool, backend: str, scheduler: str | None, quiet: bool,
         library_path: str | None, as_json: bool) -> None:
    """Mine puzzles from the default player's self-play (or from your hands in the library:
    --from-library): every decision advised, the candidates verified (4× the play-outs on
    a fresh seed; the strongest search player playing on; the open-hand solver where it
    reaches), each verified puzzle kept in the library as its hand is done."""
    from .library import Filter
    from .puzzles import mine as run

    if resume and not out_path:
        raise click.UsageError("--resume needs the --out of the run to continue")
    game = _game(game_name)
    play_seed, mine_seed = decision_seeds(seed, 2)
    command = (f"xianniu puzzles mine --game {game.name} --from-library --seed {seed}"
               if from_library else
               f"xianniu puzzles mine --game {game.name} --hands {n_hands} --seed {seed}")
    with Library(library_path) as lib:
        if from_library:
            hands = [h for h in lib.hands(Filter(game=game.name)) if h.seat is not None]
            seats: list[int | None] | None = [h.seat for h in hands]
            source, run_key = "library", f"{command} ({len(hands)} hands)"
        else:
            # self-play hand h is the same whatever --hands (one stream per chunk of hands,
            # one seed child per hand), so a run resumed with more hands keeps those mined
            seats, source = None, f"self-play seed {seed}"
            run_key = f"xianniu puzzles mine --game {game.name} --seed {seed}"
        ckpt = mine_checkpoint(out_path, run_key) if out_path else None
        done = ckpt.load() if ckpt and resume else {}  # a bad checkpoint before any play
        if from_library:
            records = [lib.record(h.id) for h in hands]
        else:
            records = game.part("luck").selfplay_records(n_hands, play_seed)
        done = {h: m for h, m in done.items() if h < len(records)}

        def found(h: int, mined) -> None:
            for p in mined[0]:
                lib.add_puzzle(p.to_json(), source)
            if ckpt:
                ckpt.save(h, mined)
        t0 = time.perf_counter()
        with interruptible(), LazyProgressBar(len(records), "hands", hidden=quiet) as bar:
            try:
                puzzles_found, report = run(game, records, mine_seed, source=source,
                                            progress=bar, found=found, seats=seats,
                                            missed_only=from_library, done=done,
                                            backend=backend, scheduler=scheduler)
            except KeyboardInterrupt:
                kept = (f"; the hands mined are kept in {ckpt.path}: run the same command "
                        f"with --resume to finish") if ckpt else ""
                raise RunInterrupted(f"interrupted: every puzzle verified so far is in "
                                     f"{lib.path}{kept}") from None
        where = lib.path
    took = time.perf_counter() - t0
    if out_path:
        head = {"format": SET_FORMAT, "version": 1, "game": game.name, "command": command,
                "puzzles": len(puzzles_found)}
        write_atomic(out_path, "".join(json.dumps(x, ensure_ascii=False) + "\n"
                                       for x in [head, *(p.to_json() for p in puzzles_found)]))
        if ckpt:
            ckpt.remove()
    mined_now = report.hands - len(done)
    rate = (report.kept - sum(len(m[0]) for m in done.values())) / took * 60 \
        if took and mined_now else 0.0
    if as_json:
        emit_json({"library": str(where), "seconds": took, "per_minute": rate,
                   "resumed_hands": len(done), **report.as_dict()})
        return
    rejects = ", ".join(f"{k} {v}" for k, v in sorted(report.rejects.items())) or "none"
    again = f"; {len(done)} hands from the checkpoint" if done else ""
    click.echo(f"{game.name}: {report.hands} hands, {report.decisions} decisions with a "
               f"choice, {report.candidates} candidates, {report.kept} verified and kept in "
               f"{where} ({rate:.1f} a minute, {took:.0f} s{again}); rejected: {rejects}")


def mine_checkpoint(out: str, run: str) -> TaskCheckpoint:
    """The hands a mining run has finished, with their puzzles and reports: one JSON file
    beside its ``--out`` (the run's command under ``run``, each hand under ``hands``)."""
    return TaskCheckpoint(
        checkpoint_path(out), {"run": run}, "run", tasks="hands",
        encode=lambda m: {"puzzles": [p.to_json() for p in m[0]], "report": m[1].as_dict()},
        decode=lambda v: ([Puzzle.from_json(p) for p in v["puzzles"]],
                          MineReport.from_json(v["report"])))


@puzzles.command(name="add")
@click.argument("sources", nargs=-1, metavar="[SET.jsonl...]")
@click.option("--shipped", is_flag=True, help="The sets shipped with xianniu, every game's.")
@LIBRARY_OPTION
def add(sources: tuple[str, ...], shipped: bool, library_path: str | None) -> None:
    """Put puzzle sets (xianniu puzzles mine --out) into the library; a puzzle already
    there is recognised."""
    from ..games import GAMES
    from .fileio import read_text
    from .puzzles import read_set
    from .puzzles import shipped as shipped_set

    if not sources and not shipped:
        raise click.UsageError("give puzzle sets, or --shipped")
    sets = [(src, read_set(read_text(src), src)[1]) for src in sources]
    if shipped:
        for game in GAMES.values():
            kept = shipped_set(game)
            if kept is not None:
                sets.append((f"shipped {game.name}", kept[1]))
    with Library(library_path) as lib:
        for name, found in sets:
            new = sum(lib.add_puzzle(p.to_json(), "shipped" if name.startswith("shipped")
                                     else name).new for p in found)
            click.echo(f"{name}: {new} added, {len(found) - new} already there")


@puzzles.command(name="list")
@click.option("--game", "game_name", default=None, help="Only this game's.")
@click.option("--theme", default=None, help="Only this theme (the kind of decision).")
@LIBRARY_OPTION
@JSON_OPTION
def list_(game_name: str | None, theme: str | None, library_path: str | None,
          as_json: bool) -> None:
    """The puzzles in the library: theme, margin, actions, whether the bot missed it."""
    if game_name is not None:
        _game(game_name)
    with Library(library_path) as lib:
        rows = lib.puzzles(game_name, theme)
    if as_json:
        emit_json([{"id": i, "game": p["game"], "rules": p["rules"], "theme": p["theme"],
                    "margin": p["margin"], "unit": p["unit"],
                    "difficulty": p["difficulty"]} for i, p in rows])
        return
    if not rows:
        click.echo("no puzzles")
        return
    for i, p in rows:
        d = p["difficulty"]
        missed = " (the bot missed it)" if d.get("player_missed") else ""
        click.echo(f"{i:>5}  {p['game']:<8} {p['rules']:<10} {p['theme']:<8} "
                   f"+{p['margin']:.2f} {p['unit']} ahead of {d['actions'] - 1} other "
                   f"action(s){missed}")


@puzzles.command()
@click.argument("out", metavar="FILE.jsonl")
@click.option("--game", "game_name", default=None, help="Only this game's.")
@LIBRARY_OPTION
def export(out: str, game_name: str | None, library_path: str | None) -> None:
    """Write the library's puzzles, one JSON object a line (answers and every hand in them:
    for sharing, not for solving)."""
    from .fileio import check_out_folder

    check_out_folder(out)
    if game_name is not None:
        _game(game_name)
    with Library(library_path) as lib:
        rows = lib.puzzles(game_name)
    write_atomic(out, "".join(json.dumps(p, ensure_ascii=False) + "\n" for _, p in rows))
    click.echo(f"wrote {len(rows)} puzzle(s) to {out}")


def _position_lines(pid: int, puzzle: dict, rating: float) -> list[str]:
    """The puzzle as its seat saw it, in the text notation (nothing hidden from the seat)."""
    from .puzzles import seen

    view = seen(_game(puzzle["game"]), puzzle)
    moves = " ".join(f"{s}:{token}" for s, token in view["moves"]) or "(none yet)"
    return [f"puzzle {pid} · {puzzle['game']} ({puzzle['rules']}) · {puzzle['theme']} · "
            f"your rating {rating:.0f}",
            f"you are seat {view['seat']}, to act; your hand as dealt: {view['hand']}",
            f"so far (seat:action, ? face down): {moves}",
            f"choices ({len(view['choices'])}): {' '.join(view['choices'])}",
            f"answer with: xianniu puzzles answer {pid} CHOICE"]


@puzzles.command(name="next")
@click.option("--game", "game_name", default=None,
              help="Only this game's (default: any; a game's shipped set is put into a library "
                   "that holds none of its puzzles).")
@LIBRARY_OPTION
@JSON_OPTION
def next_(game_name: str | None, library_path: str | None, as_json: bool) -> None:
    """The puzzle to practise now (a missed one that is due, else a new one near your
    rating), as its seat saw it."""
    from ..games import GAMES
    from .puzzles import seen, stock

    games = [_game(game_name)] if game_name is not None else list(GAMES.values())
    with Library(library_path) as lib:
        for game in games:
            stock(lib, game)
        pid = lib.next_puzzle(game_name)
        if pid is None:
            kept = lib.count_puzzles(game_name)
            click.echo("no puzzle is due: every one is solved or waits for its next "
                       "repetition" if kept else "the library holds no puzzle of this game: "
                       "mine some with xianniu puzzles mine")
            return
        puzzle, rating = lib.puzzle(pid), lib.rating(0).rating
    if as_json:
        emit_json({"id": pid, "game": puzzle["game"], "rules": puzzle["rules"],
                   "theme": puzzle["theme"], "rating": rating,
                   **seen(_game(puzzle["game"]), puzzle)})
        return
    for line in _position_lines(pid, puzzle, rating):
        click.echo(line)


@puzzles.command()
@click.argument("puzzle_id", type=click.IntRange(min=1), metavar="ID")
@click.option("--answer", "reveal", is_flag=True,
              help="Also the answer and every choice's value (no attempt is kept).")
@LIBRARY_OPTION
def show(puzzle_id: int, reveal: bool, library_path: str | None) -> None:
    """Puzzle ID as its seat saw it; with --answer, its answer and proof."""
    with Library(library_path) as lib:
        puzzle, rating = lib.puzzle(puzzle_id), lib.rating(0).rating
    for line in _position_lines(puzzle_id, puzzle, rating):
        click.echo(line)
    if reveal:
        for line in _values_lines(puzzle):
            click.echo(line)


def _values_lines(puzzle: dict) -> list[str]:
    """Every choice's value with its 95% CI and n, and how far behind the answer."""
    game = _game(puzzle["game"])
    recs = game.part("records")
    state = recs.replay(puzzle["position"])
    index = len(puzzle["position"].get("actions", []))
    lines = [f"answer: {_token(recs, state, puzzle['seat'], puzzle['answer'], index)} "
             f"(+{puzzle['margin']:.2f} {puzzle['unit']} ahead of the next)"]
    for i, a in enumerate(puzzle["actions"]):
        d = a["diff"]
        behind = "" if i == 0 else \
            f"   behind {d['value']:+.2f} [{d['low']:+.2f}, {d['high']:+.2f}]"
        lines.append(f"  {_token(recs, state, puzzle['seat'], a['action'], index):<14} "
                     f"{a['ev']:+.2f} [{a['ci95'][0]:+.2f}, {a['ci95'][1]:+.2f}] "
                     f"(n={a['n']}){behind}")
    return lines


def _token(recs, state, seat: int, entry: dict, index: int) -> str:
    return recs.action_token(state, seat, recs.action_from_json(entry, index)[1])


@puzzles.command()
@click.argument("puzzle_id", type=click.IntRange(min=1), metavar="ID")
@click.argument("choice", metavar="CHOICE")
@LIBRARY_OPTION
@JSON_OPTION
def answer(puzzle_id: int, choice: str, library_path: str | None, as_json: bool) -> None:
    """Answer puzzle ID with CHOICE (a token of the text notation, as the choices are
    written): judged, kept (both ratings move; a miss comes back for repetition), and
    explained by every choice's value."""
    from .puzzles import judge

    with Library(library_path) as lib:
        puzzle = lib.puzzle(puzzle_id)
        entry, solved = judge(_game(puzzle["game"]), puzzle, choice)
        player, rated = lib.attempt(puzzle_id, entry, solved)
        due = lib.due(puzzle_id)
    if as_json:
        emit_json({"id": puzzle_id, "solved": solved, "answer": puzzle["answer"],
                   "taken": entry, "rating": player.rating, "rd": player.rd,
                   "puzzle_rating": rated.rating, "due": due, "actions": puzzle["actions"]})
        return
    click.echo(("right!" if solved else "missed.") + f" your rating {player.rating:.0f} "
               f"(±{2 * player.rd:.0f}), the puzzle's {rated.rating:.0f}"
               + (f"; it comes back at {due}" if due else ""))
    for line in _values_lines(puzzle):
        click.echo(line)
