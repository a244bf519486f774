"""The hint's one line: the move, with its end named as the player sees it, and why."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.game.contrasts import Contrast, Measure, Other
from bot.game.hints import Hint, Reason
from bot.i18n import Translator
from engine import Doubles, Draw, End, Move, Pass, Play, Tile

# A callback alert shows at most 200 characters (Telegram counts UTF-16 units).
ALERT_LIMIT = 200
MAX_TILES_NAMED = 3


def hint_line(tr: Translator, hint: Hint, names: Mapping[End, str]) -> str:
    """«Сыграйте 4:2 на ⬆️ 3 — …; на ⬅️ 3 сопернику открылось бы +4»: plain text, one line.

    `names`: what the player sees each open end called, without its value («⬅️»).
    The player's only move is told in a short form («Единственный ход: 4:2.»).
    """
    if hint.only:
        return _fit(_only_move(tr, hint))
    reasons = [_reason(tr, hint)]
    ends = hint.end_contrast
    if ends is not None:
        why_end = _end_contrast(tr, ends, names)
        # Nothing about the tile stands out, but a count favours the end: that is the reason.
        told = ends.measure not in (Measure.SAME, Measure.EVEN) and hint.reason is Reason.LEAVES
        reasons = [why_end] if told else [*reasons, why_end]
    line = tr("{move} — {reason}").format(move=_move(tr, hint, names), reason="; ".join(reasons))
    return _fit(" ".join(line.split()))


def _only_move(tr: Translator, hint: Hint) -> str:
    move = hint.move
    if isinstance(move, Draw):
        return tr("Only move: draw from the boneyard.")
    if isinstance(move, Pass):
        if hint.penalty:
            return tr("Only move: pass (penalty +{points}).").format(points=hint.penalty)
        return tr("Only move: pass.")
    if hint.points:
        return tr("Only move: {tile} (+{points}).").format(tile=_moved(move), points=hint.points)
    return tr("Only move: {tile}.").format(tile=_moved(move))


def _move(tr: Translator, hint: Hint, names: Mapping[End, str]) -> str:
    move = hint.move
    if isinstance(move, Doubles):
        laid = ", ".join(f"{names[p.end]} {p.tile}" for p in move.plays if p.end is not None)
        return tr("Lay doubles together ({button}): {doubles}").format(
            button=tr("🁣 Several doubles"), doubles=laid
        )
    assert isinstance(move, Play)
    if hint.end is not None and hint.end_value is not None:
        end = _end(names, hint.end, hint.end_value)
        return tr("Play {tile} on {end}").format(tile=move.tile, end=end)
    return tr("Play {tile}").format(tile=move.tile)


def _reason(tr: Translator, hint: Hint) -> str:
    reason = hint.reason
    if reason is Reason.GOES_OUT:
        return tr("your last tile: you go out")
    if reason is Reason.SCORES:
        return _scores(tr, hint)
    if reason is Reason.ONLY_TILE:
        return tr("the only tile you can play")
    if reason is Reason.BLOCKS:
        return tr("your opponents have no tile for {ends}").format(ends=_pips(hint.pips))
    if reason is Reason.SHEDS_DOUBLE:
        return tr("gets rid of {tiles}").format(tiles=_tiles(hint.tiles))
    if reason is Reason.DENIES:
        assert hint.contrast is not None
        (other,) = hint.contrast.others
        return tr("after {tile} nobody scores at once; after {other} up to +{points}").format(
            tile=_moved(hint.move), other=_moved(other.move), points=other.figure
        )
    if reason is Reason.FOLLOW_UP:
        return tr("leaves you a move on {pip}: you hold {tiles}").format(
            pip=_pips(hint.pips), tiles=_tiles(hint.tiles)
        )
    if reason is Reason.SHEDS_HEAVY:
        return tr("the heaviest tile you can play")
    if reason is Reason.BETTER:
        assert hint.contrast is not None
        return _better(tr, hint.move, hint.contrast)
    assert reason is Reason.LEAVES
    ends = _listed(tr, [str(pip) for pip in hint.pips])
    if not hint.tiles:
        return tr("leaves {ends} on the ends, you hold nothing for them").format(ends=ends)
    return tr.n(
        "leaves {ends} on the ends, you hold {count} tile for them",
        "leaves {ends} on the ends, you hold {count} tiles for them",
        len(hint.tiles),
    ).format(ends=ends, count=len(hint.tiles))


def _better(tr: Translator, move: Move, contrast: Contrast) -> str:
    """The hinted move against another tile, on the count it does better on."""
    (other,) = contrast.others
    mine, theirs, measure = contrast.figure, other.figure, contrast.measure
    tile, named = _moved(move), _moved(other.move)
    if measure is Measure.RISK:
        return tr(
            "after {tile} an opponent could score up to +{mine}; after {other}, up to +{theirs}"
        ).format(tile=tile, mine=mine, other=named, theirs=theirs)
    if measure is Measure.STUCK:
        text = tr.n(
            "after {tile}, {count} opponent surely has nothing to play; after {other}, {theirs}",
            "after {tile}, {count} opponents surely have nothing to play; after {other}, {theirs}",
            mine,
        )
    elif measure is Measure.FOLLOW_UPS:
        text = tr.n(
            "after {tile}, {count} of your tiles will fit the ends; after {other}, {theirs}",
            "after {tile}, {count} of your tiles will fit the ends; after {other}, {theirs}",
            mine,
        )
    elif measure is Measure.OPEN_TO_OTHERS:
        text = tr.n(
            "after {tile}, {count} hidden tile will fit the ends; after {other}, {theirs}",
            "after {tile}, {count} hidden tiles will fit the ends; after {other}, {theirs}",
            mine,
        )
    elif measure is Measure.PIPS_KEPT:
        text = tr.n(
            "after {tile}, {count} pip stays in your hand; after {other}, {theirs}",
            "after {tile}, {count} pips stay in your hand; after {other}, {theirs}",
            mine,
        )
    else:
        assert measure is Measure.SUITS_KEPT
        text = tr.n(
            "after {tile}, your hand keeps {count} suit; after {other}, {theirs}",
            "after {tile}, your hand keeps {count} suits; after {other}, {theirs}",
            mine,
        )
    return text.format(tile=tile, count=mine, other=named, theirs=theirs)


def _end_contrast(tr: Translator, contrast: Contrast, names: Mapping[End, str]) -> str:
    """Why this end: what the tile would do on the others."""
    others = contrast.others
    ends = [_other_end(names, other) for other in others]
    measure, mine = contrast.measure, contrast.figure
    if measure is Measure.SAME:
        return tr("on {ends} the ends would come out the same").format(ends=_listed(tr, ends))
    if measure is Measure.EVEN:
        return tr("on {ends} no difference shows one move ahead").format(ends=_listed(tr, ends))
    if measure is Measure.BLOCKS:
        return tr("on {ends} your opponents could play").format(ends=_listed(tr, ends))
    if measure is Measure.RISK:
        first = tr("on {end} an opponent could score +{points} next").format(
            end=ends[0], points=others[0].figure
        )
        rest = [_on(tr, end, f"+{other.figure}") for end, other in zip(ends, others, strict=True)]
        line = ", ".join([first, *rest[1:]])
        if mine:
            return tr("{others} (here +{points})").format(others=line, points=mine)
        return line
    if measure is Measure.POINTS:
        if others[0].figure:
            first = tr("on {end} it would score {points}").format(
                end=ends[0], points=_points(tr, others[0].figure)
            )
        else:
            first = tr("on {end} it would score nothing").format(end=ends[0])
        rest = [_on(tr, end, _points(tr, o.figure)) for end, o in zip(ends, others, strict=True)]
        return ", ".join([first, *rest[1:]])
    if measure is Measure.STUCK:
        here = tr.n(
            "here {count} opponent surely has nothing to play",
            "here {count} opponents surely have nothing to play",
            mine,
        )
    elif measure is Measure.FOLLOW_UPS:
        here = tr.n(
            "here {count} of your tiles fits the ends",
            "here {count} of your tiles fit the ends",
            mine,
        )
    else:
        assert measure is Measure.OPEN_TO_OTHERS
        here = tr.n(
            "here {count} hidden tile fits the ends",
            "here {count} hidden tiles fit the ends",
            mine,
        )
    rest = [_on(tr, end, str(o.figure)) for end, o in zip(ends, others, strict=True)]
    return ", ".join([here.format(count=mine), *rest])


def _on(tr: Translator, end: str, figure: str) -> str:
    return tr("on {end}: {figure}").format(end=end, figure=figure)


def _other_end(names: Mapping[End, str], other: Other) -> str:
    assert isinstance(other.move, Play) and other.move.end is not None
    assert other.end_value is not None
    return _end(names, other.move.end, other.end_value)


def _end(names: Mapping[End, str], end: End, value: int) -> str:
    return f"{names[end]} {value}"


def _moved(move: Move) -> str:
    """The tiles a move lays, as the hand's buttons show them."""
    if isinstance(move, Play):
        return str(move.tile)
    assert isinstance(move, Doubles), move
    return "+".join(str(p.tile) for p in move.plays)


def _scores(tr: Translator, hint: Hint) -> str:
    points = _points(tr, hint.points)
    total = sum(hint.terms)
    counted = bool(hint.terms) and total > 0 and total % 5 == 0
    if hint.spinner and not counted:
        return tr("{points} for laying the spinner").format(points=points)
    if not counted:
        return points
    if len(hint.terms) == 1:
        ends = tr("the table counts {total}").format(total=total)
    else:
        terms = "+".join(str(term) for term in hint.terms)
        ends = tr("the ends {terms} = {total}").format(terms=terms, total=total)
    if hint.spinner:
        return tr("{points}: {ends}, and the spinner").format(points=points, ends=ends)
    return tr("{points}: {ends}").format(points=points, ends=ends)


def _points(tr: Translator, count: int) -> str:
    return tr.n("{count} point", "{count} points", count).format(count=count)


def _listed(tr: Translator, items: Sequence[str]) -> str:
    """«3, 5 и 6»."""
    if len(items) < 2:
        return "".join(items)
    return tr("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return ", ".join(str(tile) for tile in tiles[:MAX_TILES_NAMED])


def _pips(pips: tuple[int, ...]) -> str:
    return ", ".join(str(pip) for pip in pips)


def _fit(line: str) -> str:
    """Cut to the alert's limit (never needed for the texts above; a safety net)."""
    while len(line.encode("utf-16-le")) // 2 > ALERT_LIMIT:
        line = line[:-2] + "…"
    return line
