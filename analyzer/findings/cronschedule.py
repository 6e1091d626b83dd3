"""A CronJob's schedule: the start times it names between two moments, as the CronJob
controller reads one (robfig/cron's standard five fields and its @descriptors)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

_NAMES = {
    3: {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
                                    "oct", "nov", "dec"), 1)},
    4: {d: i for i, d in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))},
}
_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6))
_DESCRIPTORS = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}
_TERM = re.compile(r"^(?:(\*|\?)|(\w+)(?:-(\w+))?)(?:/(\d+))?$")


@dataclass(frozen=True, slots=True)
class Schedule:
    """The minutes, hours, days of month, months and weekdays a schedule fires on."""

    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]
    # robfig/cron: when both day fields are restricted, a day matching either fires
    either_day: bool

    def _day_fires(self, day: datetime) -> bool:
        in_month = day.day in self.days
        on_weekday = (day.isoweekday() % 7) in self.weekdays
        return day.month in self.months and (
            (in_month or on_weekday) if self.either_day else (in_month and on_weekday))

    def times(self, after: datetime, until: datetime, zone: tzinfo = UTC) -> Iterator[datetime]:
        """The start times after `after` up to `until` (both aware), oldest first."""
        local = after.astimezone(zone)
        day = local.replace(hour=0, minute=0, second=0, microsecond=0)
        while day <= until.astimezone(zone):
            if self._day_fires(day):
                for hour in sorted(self.hours):
                    for minute in sorted(self.minutes):
                        moment = day.replace(hour=hour, minute=minute)
                        if moment > until:
                            return
                        if moment > after:
                            yield moment
            day = (day + timedelta(days=1)).replace(hour=0, minute=0)


def parse_schedule(text: str) -> Schedule | None:
    """The schedule a CronJob's spec.schedule names, or None when it is not one this reads
    (a time zone prefix, `@every`, a field out of bounds)."""
    text = _DESCRIPTORS.get(text.strip().lower(), text.strip())
    fields = text.split()
    if len(fields) != 5:
        return None
    sets: list[frozenset[int]] = []
    for index, field in enumerate(fields):
        values = _field(field.lower(), index)
        if values is None:
            return None
        sets.append(values)
    if 7 in sets[4]:
        sets[4] = (sets[4] - {7}) | {0}  # Sunday written as 7
    restricted = [not fields[i].startswith(("*", "?")) for i in (2, 4)]
    return Schedule(*sets, either_day=all(restricted))


def _field(field: str, index: int) -> frozenset[int] | None:
    low, high = _BOUNDS[index]
    high = 7 if index == 4 else high
    values: set[int] = set()
    for term in field.split(","):
        match = _TERM.match(term)
        if match is None:
            return None
        star, first, last, step = match.groups()
        if star:
            start, end = low, _BOUNDS[index][1]
        else:
            start = _number(first, index)
            end = _number(last, index) if last else (high if step else start)
            if start is None or end is None:
                return None
        if not (low <= start <= end <= high):
            return None
        values.update(range(start, end + 1, int(step) if step else 1))
    return frozenset(values) if values else None


def _number(word: str, index: int) -> int | None:
    if word.isdigit():
        return int(word)
    return _NAMES.get(index, {}).get(word[:3])
