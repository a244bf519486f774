"""Python's cyclic garbage collector, set for a long-running bot.

Untuned, it took about 8 % of the bot's CPU in `bench/load.py --games 200 --table`,
most of it in full collections of about 200 ms each (a pause of the event loop every
few seconds): a full collection looks at every container object of the process, some
330,000 there, most of them start-up's (modules, functions, types) and the render
caches' (the laid-out tables and end names of a few hundred games). Nearly all the
bot's garbage is freed by reference counting the moment it is dropped, so the
collector may look less often. (The standard library's knobs: no package does this.)
"""

from __future__ import annotations

import gc

# Allocations between two young collections (CPython's default is 700): fewer
# collections, and fewer objects in flight (a pending call's) promoted at each, so the
# full collections, which follow the promotions, come far less often.
YOUNG = 20_000
OLDER = 20  # young collections between middle ones, and middle ones between full ones


def settle() -> None:
    """Once start-up is done: what it built lives as long as the process, so no
    collection looks at it again (`gc.freeze`), and the collections come less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
