import os

os.environ.setdefault("MPLBACKEND", "Agg")

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("GRAPHMINE_HYPOTHESIS_PROFILE", "default"))

SHARED = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "shared", "datasets")


@pytest.fixture(scope="session")
def shipped():
    import graphmine as gm

    return {name: gm.datasets.load(name) for name in gm.datasets.names()}
