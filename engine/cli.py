"""`python -m engine replay FILE` (installed as `domino-replay FILE`): replay a game
record and print its summary."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import RecordError
from engine.record import replay, summary


def _read(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"cannot read {path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"record: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise RecordError("record: nested too deeply") from None
    except ValueError:  # int() refuses numbers of more than 4300 digits
        raise RecordError("record: a number is too long") from None


def dumps(value: Any, indent: int = 0, width: int = 100) -> str:
    """JSON with short values kept on one line, so a replay reads like the spec's example."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 2)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dumps(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def main(argv: list[str] | None = None) -> int:
    """`python -m engine COMMAND ...`: the engine's commands (one so far, `replay`)."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    _file_argument(commands.add_parser("replay", help="replay a record and print the result"))
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    return _replay(args.file)


def replay_main(argv: list[str] | None = None) -> int:
    """`domino-replay FILE`: the replay command on its own."""
    parser = argparse.ArgumentParser(prog="domino-replay", description=__doc__)
    _file_argument(parser)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    return _replay(args.file)


def _file_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the record (JSON); - reads standard input")


def _replay(path: str) -> int:
    try:
        game = replay(_read(path))
    except RecordError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    sys.stdout.write(dumps(summary(game)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
