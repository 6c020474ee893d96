"""Fuzz case counts, printed at the end of the run by tests/conftest.py's summary hook."""

from __future__ import annotations

from collections import Counter
from typing import Any

FUZZ_CASES: Counter[str] = Counter()
FUZZ_FAILURES: Counter[str] = Counter()


def summary(terminalreporter: Any) -> None:
    if not FUZZ_CASES:
        return
    total = sum(FUZZ_CASES.values())
    parts = ", ".join(f"{name} {count}" for name, count in sorted(FUZZ_CASES.items()))
    terminalreporter.write_line(
        f"fuzz cases: {total} ({parts}); 5xx/tracebacks: {sum(FUZZ_FAILURES.values())}"
    )
