"""Helpers shared by the tests."""

from __future__ import annotations

import os
import subprocess
import sys

# hypothesis's examples per property: sized for CI; TRACKER_EXAMPLES=10 runs ten times as many by hand
EXAMPLES_SCALE = max(float(os.environ.get("TRACKER_EXAMPLES", "1") or 1), 0.01)


def examples(n: int) -> int:
    """``n`` examples on CI, scaled by ``TRACKER_EXAMPLES`` by hand."""
    return max(1, round(n * EXAMPLES_SCALE))


def in_new_interpreter(code: str, *args: str) -> list[str]:
    """What ``code`` prints, word by word, run by a fresh Python (nothing imported yet: the app's launch)."""
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return out.stdout.split()
