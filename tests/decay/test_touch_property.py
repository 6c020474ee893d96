"""Property tests on a real store: time alone never raises a score; touch never lowers one."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mnemex
from mnemex import Settings
from tests.conftest import FakeClock

steps = st.lists(
    st.tuples(st.sampled_from(["wait", "touch", "boost", "observe"]), st.floats(0.0, 60.0)),
    min_size=1,
    max_size=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=steps, strength=st.floats(0.0, 2.0))
def test_scores_follow_use_and_time(plan: list[tuple[str, float]], strength: float) -> None:
    clock = FakeClock()
    with mnemex.open(":memory:", settings=Settings.load(env={}), clock=clock) as store:
        memory_id = store.save("a memory under test", strength=strength).id
        for action, days in plan:
            before = store.get(memory_id).score
            if action == "wait":
                clock.advance(days=days)
                assert store.get(memory_id).score <= before + 1e-12
            elif action == "observe":
                assert store.observe([memory_id])[0].score >= before - 1e-12
            else:
                assert store.touch(memory_id, boost=action == "boost").score >= before - 1e-12
