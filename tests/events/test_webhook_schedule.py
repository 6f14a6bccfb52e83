"""When failed deliveries are tried again, and when an endpoint is disabled: pure."""

from __future__ import annotations

import pytest

from events.webhooks.schedule import (
    CEILING_SECONDS,
    MAX_FAILURES,
    disabled_after,
    retry_delay,
    retry_span,
)

DAY = 86400.0


def test_the_first_retry_comes_after_five_seconds_and_each_delay_doubles():
    assert [retry_delay(n) for n in range(1, 6)] == [5.0, 10.0, 20.0, 40.0, 80.0]


def test_delays_grow_until_a_ceiling_of_four_hours_and_stay_there():
    delays = [retry_delay(n) for n in range(1, 40)]
    assert delays == sorted(delays)
    assert max(delays) == CEILING_SECONDS == 4 * 3600
    assert retry_delay(10_000) == CEILING_SECONDS


def test_with_the_defaults_a_delivery_is_tried_for_more_than_a_day_before_disabling():
    assert retry_span() > DAY
    assert MAX_FAILURES == 20


def test_a_faster_first_delay_keeps_the_same_doubling():
    assert [retry_delay(n, first=0.1) for n in (1, 2, 3)] == pytest.approx([0.1, 0.2, 0.4])


def test_an_endpoint_is_disabled_at_its_twentieth_failure_in_a_row():
    assert not disabled_after(19)
    assert disabled_after(20)
    assert disabled_after(3, limit=3)


def test_a_retry_only_follows_a_failure():
    with pytest.raises(ValueError):
        retry_delay(0)
