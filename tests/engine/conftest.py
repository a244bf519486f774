"""Hypothesis settings for the engine tests.

The property tests set how many games they play; `ENGINE_PROPERTY_SCALE=10`
multiplies that. `HYPOTHESIS_PROFILE=ci` replays the same games on every run.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
