"""Hypothesis profiles for the engine tests: `HYPOTHESIS_PROFILE=thorough` plays many more games."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "thorough",
    parent=settings.get_profile("default"),
    max_examples=5000,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
