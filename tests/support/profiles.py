"""Hypothesis's profiles: ``full`` (hypothesis's own 100 examples a property; `make test`)
and ``fast`` (a fifth of them; `make test-fast`, the everyday loop), chosen by
``HYPOTHESIS_PROFILE`` (tests/conftest.py loads it before any test module is imported).

A property that asks for its own number of examples asks through ``examples(n)``:
``n`` in the full profile, the same share of it as the profile's in another (never
under one), so the fast loop still draws every property, only fewer times."""

from __future__ import annotations

import os

from hypothesis import settings

FULL = 100  # hypothesis's default max_examples
PROFILES = {"full": FULL, "fast": FULL // 5}


def load() -> str:
    """Register the profiles and load the one ``HYPOTHESIS_PROFILE`` names (``full`` without it)."""
    for name, max_examples in PROFILES.items():
        settings.register_profile(name, max_examples=max_examples)
    name = os.environ.get("HYPOTHESIS_PROFILE", "full")
    if name not in PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: the profiles are {', '.join(PROFILES)}")
    settings.load_profile(name)
    return name


def examples(full: int) -> int:
    """``full`` examples in the full profile, the loaded profile's share of them otherwise."""
    return max(1, full * settings.default.max_examples // FULL)
