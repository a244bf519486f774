"""Draws the sample pictures docs/pictures.md shows (from tests/support/samples.py).

.venv/bin/python docs/make_pictures.py            # into docs/pictures, Russian
.venv/bin/python docs/make_pictures.py DIR --en   # into DIR, in English
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import render_board, render_final, render_hand
from tests.support.samples import catalog, phone, sample_changes, sample_views


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    paths = [a for a in args if not a.startswith("--")]
    out = Path(paths[0] if paths else "docs/pictures")
    out.mkdir(parents=True, exist_ok=True)
    tr = catalog("en" if "--en" in args else "ru")
    for name, view in sample_views().items():
        kind = name.rsplit("-", 1)[1]
        render = {
            "board": render_board,
            "full": render_board,
            "hand": render_hand,
            "final": render_final,
        }[kind]
        if kind == "final":  # a table of people: each one's rating change
            picture = render_final(view, tr, sample_changes(view))
        else:
            picture = render(view, tr)
        pictures = {name: picture}
        if kind == "full":  # and as a phone shows it
            pictures[name.replace("-full", "-phone")] = phone(picture)
        if kind == "final":
            pictures[f"{name}-phone"] = phone(picture)
        for file, shown in pictures.items():
            path = out / f"{file}.{'jpg' if shown.format == 'jpeg' else shown.format}"
            path.write_bytes(shown.data)
            print(f"{path}: {shown.width}x{shown.height}, {len(shown.data) // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
