"""Colours shared by every picture."""

from __future__ import annotations

RGB = tuple[int, int, int]

FELT: RGB = (28, 104, 66)
FELT_EDGE: RGB = (14, 66, 40)
PANEL: RGB = (24, 33, 30)
PANEL_LINE: RGB = (54, 70, 62)
PANEL_ROW: RGB = (34, 46, 41)
TEXT: RGB = (240, 240, 232)
TEXT_DIM: RGB = (160, 172, 164)
GOLD: RGB = (240, 192, 64)
GOLD_DARK: RGB = (176, 128, 28)
SILVER: RGB = (196, 202, 210)
BRONZE: RGB = (200, 128, 70)
GREEN: RGB = (96, 208, 120)
RED: RGB = (236, 96, 84)
TURN: RGB = (255, 214, 90)  # the player to act

IVORY: RGB = (250, 246, 234)
IVORY_EDGE: RGB = (186, 176, 150)
DIVIDER: RGB = (140, 128, 106)
PIP: RGB = (26, 26, 32)
BRASS: RGB = (196, 156, 72)
HUB_RING: RGB = (232, 176, 40)
LAST_GLOW: RGB = (255, 228, 92)
PLAYABLE: RGB = (120, 236, 140)
MARK_RIM: RGB = (250, 250, 240)  # around an end mark
