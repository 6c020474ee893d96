"""Drive cortexgraph's own save and search tools on a corpus; run with cortexgraph's Python.

`mnemex bench peers` runs this file as a script with the interpreter of a separate venv that has
cortexgraph 1.2.1 (it needs `mcp<2`, which Mnemex cannot share). It imports nothing from Mnemex.
Input: a JSON file named by argv[1], {"storage": dir, "memories": [text, ...]}; it saves them
all and writes one JSON line (count, seconds). Then each stdin line [question, target index]
gets one stdout line: the search's latency in milliseconds (timed here, without the pipe) and
whether the target, or a memory with the same text, was among the top 10. Queries arrive one at
a time so the caller can interleave them with its own and both see the same machine load.

It calls the MCP tool functions an agent would call (`save_memory`, `search_memory`, whose
defaults are kept: no embeddings, Jaccard text similarity, review candidates blended in), with
cortexgraph's default JSONL storage in a fresh directory.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from typing import Any


def main(spec_path: str) -> None:
    """Save every memory, say "ready", then answer one query per input line until EOF."""
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    os.environ["CORTEXGRAPH_STORAGE_PATH"] = spec["storage"]
    os.environ["CORTEXGRAPH_ENABLE_EMBEDDINGS"] = "false"
    context: Any = importlib.import_module("cortexgraph.context")
    save: Any = importlib.import_module("cortexgraph.tools.save")
    search: Any = importlib.import_module("cortexgraph.tools.search")
    context.db.connect()
    started = time.perf_counter()
    ids = [save.save_memory(content=text)["memory_id"] for text in spec["memories"]]
    same_text: dict[str, set[str]] = {}
    for memory_id, text in zip(ids, spec["memories"], strict=True):
        same_text.setdefault(text, set()).add(memory_id)
    _reply({"saved": len(ids), "save_seconds": time.perf_counter() - started})
    for line in sys.stdin:
        question, target = json.loads(line)
        started = time.perf_counter()
        answer = search.search_memory(query=question, top_k=10)
        elapsed = (time.perf_counter() - started) * 1000.0
        wanted = same_text[spec["memories"][target]]
        found = any(hit["id"] in wanted for hit in answer["results"][:10])
        _reply({"ms": elapsed, "found": found})


def _reply(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
