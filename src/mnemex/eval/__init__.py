"""Benchmarks and evaluations (`mnemex bench`, `mnemex eval`): every README figure is made here."""
