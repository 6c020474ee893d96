"""MemoryHarness: give any LLM function a memory (recall -> inject -> call -> analyse and save)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mnemex.interfaces.hooks.turn import save_fields, worth_saving
from mnemex.models import to_jsonable
from mnemex.service import MemoryStore

Message = dict[str, str]
LLM = Callable[[list[Message]], str]
SYSTEM = "You are a helpful assistant with a long-term memory."


@dataclass
class Turn:
    """What one call did: the memories injected, the reply, and the id saved (if any)."""

    reply: str
    recalled: list[str] = field(default_factory=list)
    saved: str | None = None


class MemoryHarness:
    """Wraps `llm(messages) -> str` (OpenAI-style chat messages) with recall and saving."""

    def __init__(
        self,
        llm: LLM,
        store: MemoryStore | None = None,
        *,
        k: int = 5,
        system: str = SYSTEM,
        save: bool = True,
    ) -> None:
        if store is None:
            import mnemex

            store = mnemex.open()
        self.llm = llm
        self.store = store
        self.k = k
        self.system = system
        self.save = save
        self.last: Turn | None = None

    @classmethod
    def openai(
        cls, base_url: str, model: str, *, api_key: str | None = None, **options: Any
    ) -> MemoryHarness:
        """A harness over an OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server...)."""
        from mnemex.interfaces.hooks.openai_compat import chat_completion

        return cls(chat_completion(base_url, model, api_key=api_key), **options)

    def __call__(self, message: str, history: Sequence[Message] = ()) -> str:
        """Answer `message` with what the store remembers in the system prompt."""
        recalled = self.store.recall(message, k=self.k)
        system = self.system + ("\n\n" + recalled.block if recalled.block else "")
        messages = [{"role": "system", "content": system}, *history]
        messages.append({"role": "user", "content": message})
        reply = self.llm(messages)
        if not isinstance(reply, str):
            raise TypeError(f"llm must return a str, not {type(reply).__name__}")
        turn = Turn(reply=reply, recalled=[hit.memory.id for hit in recalled.hits])
        if self.save:
            turn.saved = self._remember(message, reply)
        self.last = turn
        return reply

    def _remember(self, message: str, reply: str) -> str | None:
        analysis = to_jsonable(self.store.analyze(message, context=reply))
        if not worth_saving(analysis):
            return None
        return self.store.save(**save_fields(message, analysis, "harness")).id
