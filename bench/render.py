"""How fast the pictures render, and how large they are.

    .venv/bin/python bench/render.py            # timings and sizes, per variant

Boards are timed on a full table (all 28 tiles down) after one warm-up render
(sprites and fonts are cached per process, as in the bot); the first, cold render
is reported too. The target: a full board under 15 ms median, under 200 KB.
The board's layout (cached per table) is timed on its own too, as a move makes it:
for a table not seen before, every table of ten full rounds of each game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import Picture, board_layout, render_board, render_final, render_hand
from engine.table import Table
from engine.tiles import End
from engine.variants import VARIANTS, ruleset
from engine.view import SeatView, view_for
from tests.support.samples import PLAYERS, catalog, full_table, play, with_table

BOARD_MS = 15.0
BOARD_BYTES = 200 * 1024


def timings(render: Callable[[], Picture], runs: int) -> tuple[float, float, Picture]:
    """Median and 99th percentile in milliseconds, and the last picture."""
    picture = render()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        picture = render()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return statistics.median(times), p99, picture


def views(variant: str) -> dict[str, SeatView]:
    players = list(PLAYERS)
    game = play(variant, players, seed=11, until=lambda g: len(g.round.table.tiles()) >= 10)
    seat = game.turn if game.turn is not None else 0
    return {
        "board (28 tiles)": with_table(view_for(game), full_table(variant, "cross", seed=2)),
        "hand": view_for(game, seat),
        "final table": view_for(play(variant, players, seed=12)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    ok = True
    russian = catalog("ru")
    columns = ("cold ms", "median ms", "p99 ms", "size KB")
    print(f"{'variant':8} {'picture':17} " + " ".join(f"{c:>9}" for c in columns) + "  picture")
    for variant in VARIANTS:
        for name, view in views(variant).items():
            render = {
                "board (28 tiles)": render_board,
                "hand": render_hand,
                "final table": render_final,
            }[name]
            start = time.perf_counter()
            render(view, russian)
            cold = (time.perf_counter() - start) * 1000
            median, p99, picture = timings(lambda v=view, r=render: r(v, russian), args.runs)
            size = len(picture.data)
            print(
                f"{variant:8} {name:17} {cold:9.1f} {median:9.2f} {p99:9.2f} {size / 1024:9.1f}"
                f"  {picture.width}x{picture.height} {picture.format}"
            )
            if name.startswith("board") and (median > BOARD_MS or size > BOARD_BYTES):
                ok = False
    print("target (full board: median < 15 ms, < 200 KB):", "met" if ok else "MISSED")
    median, p99, count = new_table_layouts()
    print(f"board layout of a new table: median {median:.2f} ms, p99 {p99:.2f} ms ({count} tables)")
    return 0 if ok else 1


def new_table_layouts() -> tuple[float, float, int]:
    """Median and 99th percentile (ms) of laying out a table just grown by one move."""
    times = []
    for variant in VARIANTS:
        rules = ruleset(variant)
        for seed in range(10):
            table = full_table(variant, "random", seed)
            opening = table.opening
            assert opening is not None
            grown = Table()
            grown.open_with(opening.tile, opening.inner)
            rules.claim_hub(grown, None)
            for _, end, placed in sorted((p.seq, e, p) for e in End for p in table.arm(e)):
                grown.attach(placed.tile, end)
                rules.claim_hub(grown, end)
                start = time.perf_counter()
                board_layout(grown, variant)
                times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[round(0.99 * (len(times) - 1))], len(times)


if __name__ == "__main__":
    raise SystemExit(main())
