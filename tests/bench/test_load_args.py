"""bench/load.py's arguments: --table and its spectators, and what makes no sense refused."""

from __future__ import annotations

import pytest

from bench.load import parse_args


def test_table_with_spectators_and_processes() -> None:
    args = parse_args(["--games", "200", "--table", "--spectators", "10", "--processes", "2"])
    assert (args.games, args.table, args.spectators, args.processes) == (200, True, 10, 2)


def test_by_default_people_press_buttons() -> None:
    args = parse_args([])
    assert (args.table, args.spectators, args.processes) == (False, 0, 1)


@pytest.mark.parametrize(
    "argv",
    [
        ["--spectators", "3"],  # spectators watch the table
        ["--table", "--spectators", "-1"],
        ["--table", "--topics", "3"],
        ["--games", "0"],
        ["--processes", "0"],
    ],
)
def test_what_makes_no_sense_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    assert exited.value.code == 2
    assert "error" in capsys.readouterr().err
