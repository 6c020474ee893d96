"""Timeline and episode context: neighbours and episodes lend relevance, bounded by episodes."""

from __future__ import annotations

import numpy as np

from mnemex.retrieval.episode import with_context
from mnemex.retrieval.timeline import Timeline

HOUR = 3600 * 10**6


def _timeline() -> Timeline:
    timeline = Timeline(episode_gap_us=HOUR)
    for n in range(4):  # one conversation: a0..a3
        timeline.put(f"a{n}", time=n * 60 * 10**6, source="chat", live=True, says_when=False)
    for n in range(3):  # the next day: b0..b2
        timeline.put(f"b{n}", time=30 * HOUR, source="chat", live=True, says_when=n == 1)
    return timeline


def test_episodes_split_on_time_gap_and_source() -> None:
    timeline = _timeline()
    timeline.put("c0", time=30 * HOUR, source="email", live=True, says_when=False)
    episodes = timeline.episodes[timeline.rows(["a0", "a3", "b0", "b2", "c0"])]
    assert episodes[0] == episodes[1] != episodes[2] == episodes[3] != episodes[4]


def test_neighbours_stay_inside_the_episode_and_skip_the_dead() -> None:
    timeline = _timeline()
    asked = ["a3", "b1", "ghost"]  # ghost: a memory the timeline does not know
    positions, targets, distances = timeline.neighbours(timeline.rows(asked), 1)
    pairs = {(asked[p], timeline.ids[t]) for p, t in zip(positions, targets, strict=True)}
    assert pairs == {("a3", "a2"), ("b1", "b0"), ("b1", "b2")}
    assert distances.tolist() == [1, 1, 1]
    positions, targets, distances = timeline.neighbours(timeline.rows(["a3"]), 2)
    found = {timeline.ids[t]: int(d) for t, d in zip(targets, distances, strict=True)}
    assert found == {"a2": 1, "a1": 2}  # b0 and b1 are as close, in the next episode
    timeline.kill("b2")
    _, targets, _ = timeline.neighbours(timeline.rows(["b1"]), 1)
    assert [timeline.ids[t] for t in targets] == ["b0"]


def test_context_lifts_neighbours_and_the_matching_episode() -> None:
    timeline = _timeline()
    scores = {"a1": 1.0, "a2": 0.5, "b1": 0.6}
    out, added = with_context(timeline, scores, neighbour_weight=0.5, episode_weight=0.1, width=1)
    assert out["a0"] > 0 and out["b0"] > 0  # neighbours of matches join
    assert "b2" in out and "a3" in out
    assert out["a2"] > out["b1"]  # a2's episode has two matches, b1's one
    assert np.isclose(added["a1"], out["a1"] - 1.0)
    same, none = with_context(timeline, scores, neighbour_weight=0, episode_weight=0, width=1)
    assert same == scores and none == {}
