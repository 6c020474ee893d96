"""The aspect encoder: which attribute a statement speaks of, whatever its words."""

from __future__ import annotations

import numpy as np
import pytest

from mnemex import MemoryStore
from mnemex.ledger import aspects, attribute, kept


def test_a_statement_is_nearest_the_question_of_its_attribute() -> None:
    """Each of Ines's statements is nearer the question of its own attribute than any of her
    other statements is, though two of them share no word with their question."""
    said = [
        "Ines Moreau's salary lands in a Revolut account these days.",
        "Ines plays second cello in the city orchestra.",
        "Ines rents a one-bedroom flat near the Croix-Rousse market.",
        "Ines gets her hair cut at a little salon called Frange.",
    ]
    asked = [
        "Which bank is Ines with?",
        "What instrument does Ines play?",
        "Where does Ines live?",
        "Who cuts Ines's hair?",
    ]
    found = aspects.vectors(said + asked)
    assert found is not None
    closeness = found[len(said) :] @ found[: len(said)].T
    assert np.array_equal(closeness.argmax(axis=1), np.arange(len(said))), closeness


def test_vectors_are_unit_length_and_repeatable() -> None:
    found = aspects.vectors(["Omar drives a Skoda.", "Omar drives a Skoda."])
    assert found is not None
    assert np.allclose(np.linalg.norm(found, axis=1), 1.0, atol=1e-3)
    assert np.allclose(found[0], found[1])


def test_a_save_keeps_its_aspect_vector_in_the_store(mem_store: MemoryStore) -> None:
    """A save encodes its memory beside the statement reading and keeps the vector (float16)
    under the encoder's model id, so another process reads it instead of running the model."""
    encoder = aspects.encoder()
    assert encoder is not None
    text = "Lucia Ferri's gym membership moved to the Virgin Active on Via Torino."
    mem_store.save(text)
    with mem_store.engine.backend.read(mem_store.tenant) as tx:
        stored = tx.phrase_vectors(encoder.model_id, [kept.digest(text)])
    assert set(stored) == {kept.digest(text)}
    vector = np.frombuffer(stored[kept.digest(text)], dtype="<f2").astype(np.float32)
    expected = aspects.vectors([text])
    assert expected is not None
    assert vector == pytest.approx(expected[0], abs=2e-3)


def test_without_the_setting_no_vector_is_kept(mem_store: MemoryStore) -> None:
    """The aspect vectors serve read-time resolution alone: with it off, a save makes none."""
    encoder = aspects.encoder()
    assert encoder is not None
    text = "Kofi Mensah's dentist is now Dr Osei on Ring Road."
    view = MemoryStore(mem_store.engine.backend, mem_store.settings.replace(ledger_resolve=False))
    view.save(text)
    with mem_store.engine.backend.read(mem_store.tenant) as tx:
        assert tx.phrase_vectors(encoder.model_id, [kept.digest(text)]) == {}


def _unit(rows: list[list[float]]) -> np.ndarray:
    matrix = np.zeros((len(rows), 384), dtype=np.float32)
    for i, row in enumerate(rows):
        matrix[i, : len(row)] = row
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def test_an_aspect_near_the_seeds_lets_a_statement_join_the_group() -> None:
    """A statement whose embedding points away from the seed's (once the subject's shared part
    is removed) is out of the group unless it names the seed's value; with the aspect encoder,
    an aspect cosine to the question as high as the seed's lets it in."""
    texts = ["Hana parks in bay 12.", "Hana walks her dog daily.", "Hana was given bay 2."]
    vectors = _unit([[1, 0, 0], [0, 1, 0], [-1, 0, 1]])
    query = _unit([[1, 0, 0]])[0]
    question = "Where does Hana park?"
    said = _unit([[1, 0], [0, 1], [1, 0.1]])
    asked = _unit([[1, 0]])
    without, seed = attribute.probabilities(texts, vectors, question, query, {"hana"})
    assert seed == 0 and without[2] == 0.0
    joined, _ = attribute.probabilities(
        texts, vectors, question, query, {"hana"}, aspect=(said, asked)
    )
    assert joined[2] > 0.0
    assert joined[1] == 0.0  # the dog: far in both
