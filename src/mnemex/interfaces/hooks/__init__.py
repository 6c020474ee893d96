"""Agent integrations: Claude Code hooks, client installers and MemoryHarness for any LLM."""

from __future__ import annotations

from mnemex.interfaces.hooks.harness import MemoryHarness, Turn

__all__ = ["MemoryHarness", "Turn"]
