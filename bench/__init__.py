"""Benchmarks and evaluations (`mnemex bench`, `mnemex eval`): every README figure is made here.

This package lives beside the library, not inside its wheel: its data sets (bench/data/) are
for measuring Mnemex, not for running it.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the checkout: `python -m bench.memory` runs from it
DATA = Path(__file__).resolve().parent / "data"
