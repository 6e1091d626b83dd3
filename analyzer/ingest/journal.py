"""A node's journal as tickets carry it: `journalctl -u kubelet` (short or short-iso output),
`systemctl status kubelet`'s last lines, a syslog excerpt; each line told to its host and unit.

journalctl's default output prints neither the year nor the time zone (the host's local time):

    Aug 23 13:53:14 node01 kubelet[8691]: E0823 13:53:14.926448    8691 run.go:72] "command failed" ...
    Aug 23 13:53:14 node01 systemd[1]: kubelet.service: Main process exited, code=exited, status=1/FAILURE

`-o short-iso` prints both (`2024-08-23T13:53:14+0000 node01 kubelet[8691]: ...`), and
`systemctl status` says when the unit's state began, with its year and zone
(`Active: activating (auto-restart) ... since Sat 2018-12-15 15:10:00 CST; 1s ago`): the year of
the lines printed under it. A line of systemd about a unit (`kubelet.service: ...`) is that
unit's; a process's own line is its program's (`kubelet`, `containerd`, `k3s`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                       "Nov", "Dec"), start=1)}
# journalctl prints the month as the node's locale abbreviates it (glibc's `%b`): these are the
# abbreviations of the locales support tickets come in, matched in any case (Russian May as май
# too, the form some glibc versions print); a CJK locale names months by number: `4月 22 10:26:38`,
# `10月 25 16:08:09`, ` 4월 22` (ko_KR)
_LOCAL_MONTHS = {name: i for names in (
    "jan feb mär apr mai jun jul aug sep okt nov dez",  # de
    "janv. févr. mars avril mai juin juil. août sept. oct. nov. déc.",  # fr
    "ene feb mar abr may jun jul ago sep oct nov dic",  # es
    "jan fev mar abr mai jun jul ago set out nov dez",  # pt
    "gen feb mar apr mag giu lug ago set ott nov dic",  # it
    "sty lut mar kwi maj cze lip sie wrz paź lis gru",  # pl
    "янв фев мар апр мая июн июл авг сен окт ноя дек",  # ru
    "січ лют бер кві тра чер лип сер вер жов лис гру",  # uk
) for i, name in enumerate(names.split(), start=1)} | {"май": 5}
_LOCAL_MONTH = "|".join(re.escape(name) for name in sorted(_LOCAL_MONTHS, key=len, reverse=True))
# (-o short-precise adds microseconds; -o short-iso[-precise] prints the year and offset;
# -o short-full the weekday, year and zone name: `Fri 2024-08-23 13:53:14 UTC`)
_LINE = re.compile(
    r"^(?:(?P<month>[A-Z][a-z]{2}|\d{1,2}[月월]|(?i:" + _LOCAL_MONTH + r"))"
    r" {1,2}(?P<day>\d{1,2}) (?P<time>\d\d:\d\d:\d\d)(?:\.\d+)?"
    r"|(?P<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:[.,]\d+)?(?P<zone>Z|[+-]\d\d:?\d\d)"
    r"|[A-Z][a-z]{2} (?P<full>\d{4}-\d\d-\d\d) (?P<full_time>\d\d:\d\d:\d\d)(?:\.\d+)? (?P<full_zone>[A-Z]{2,5}|[+-]\d{4}))"
    r" (?P<host>[^\s\[\]:]+) (?P<ident>[^\s\[\]:]+?)(?:\[(?P<pid>\d+)\])?: (?P<message>.*)$"
)
# logrus's own time in the message (k3s, RKE2, containerd): its year, and its offset when its clock
# reads as the journal's stamp does
_OWN_TIME = re.compile(r'\btime="(?P<year>\d{4})-\d\d-\d\dT(?P<clock>\d\d:\d\d:\d\d)(?:\.\d+)?(?P<zone>Z|[+-]\d\d:\d\d)"')
_UNIT_SAID = re.compile(r"^(?:Unit )?(?P<unit>[\w@.-]+?)\.service[: ]")
_SYSTEMD_SAYS = re.compile(r"^(?:Start(?:ed|ing)|Stopp(?:ed|ing)) (?P<unit>[\w@.-]+?)\.service\b")
# journalctl's first line, when it names both ends: one year for all its lines when they share it
_LOGS_SPAN = re.compile(r"^-- (?:Logs|Journal) begins? at \w+ (?P<year>\d{4})-(?P<month>\d\d)-\d\d [\d:]+ (?P<zone>[A-Za-z+-]\w*),"
                        r" ends? at \w+ (?P<end>\d{4})-\d\d-\d\d [\d:]+ (?P<end_zone>[A-Za-z+-]\w*)\. --")
_STATUS_SINCE = re.compile(r"^\s*Active: (?P<state>\w+) .*? since \w+ (?P<year>\d{4})-(?P<month>\d\d)-(?P<day>\d\d)"
                           r" (?P<time>\d\d:\d\d:\d\d)(?: (?P<zone>[A-Za-z+-]\w*))?;")
_MAIN_PID = re.compile(r"^\s*Main PID: (?P<pid>\d+) \(")
# systemd's descriptions of the units it starts and stops, by unit ("Started kubelet: The
# Kubernetes Node Agent."): what names no unit file but its description
_DESCRIPTIONS = (("kubelet", re.compile(r"^(?:Start(?:ed|ing)|Stopp(?:ed|ing)) (?:kubelet\b|Kubernetes Kubelet)")),)


def _month_number(said: str) -> int:
    """The month a journal line's stamp names, in English, by number or in a locale's words; 0 when
    none.

    >>> [_month_number(m) for m in ("Sep", "10月", "4월", "сен", "Mai", "Okt", "janv.", "Foo")]
    [9, 10, 4, 9, 5, 10, 1, 0]
    """
    if said[-1] in "月월":
        return int(said[:-1])
    return _MONTHS.get(said) or _LOCAL_MONTHS.get(said.lower(), 0)


@dataclass(frozen=True, slots=True)
class JournalLine:
    """One journal line: where it was read, the host and unit it is of (and the program that
    wrote it: systemd for its lines about a unit), its time as printed
    (`stamp`), the year and zone it has when the output says them ("" when not), its message."""

    source: str
    line: int
    host: str
    unit: str
    program: str
    pid: str
    stamp: str
    year: str
    zone: str
    message: str
    # when the process began, as `systemctl status` says of its Main PID ("Active: active
    # (running) since ..."): (year, month, day, hour, minute, second), else None
    since: tuple[int, int, int, int, int, int] | None = None
    # read from the component's own log file (klog's line, its message): no journal printed it
    bare: bool = False

    @property
    def moment(self) -> tuple[int, int, int, int, int, int] | None:
        """(year or 0, month, day, hour, minute, second): the order of lines within one journal."""
        stamp = self.stamp if "T" not in self.stamp else self.stamp + (self.zone if self.zone[:1] in "Z+-" else "Z")
        match = _LINE.match(f"{stamp} h u: m")
        if match is None:
            return None
        if match.group("iso") or match.group("full"):
            date, time = (match.group("iso") or f"{match.group('full')}T{match.group('full_time')}").split("T")
            y, mo, d = (int(p) for p in date.split("-"))
        else:
            mo = _month_number(match.group("month"))
            if not mo:
                return None
            y, d, time = int(self.year or 0), int(match.group("day")), match.group("time")
        h, mi, s = (int(p) for p in time.split(":"))
        return (y, mo, d, h, mi, s)

    @property
    def when(self) -> str:
        """The time as a reader should see it: with the year and zone where the output gave them,
        else as printed and saying what it lacks."""
        if self.year and self.zone:
            if "T" not in self.stamp:
                return f"{self.stamp} {self.year} {self.zone}"
            return f"{self.stamp}{self.zone}" if self.zone[:1] in "Z+-" else f"{self.stamp.replace('T', ' ')} {self.zone}"
        if self.year:
            return f"{self.stamp} {self.year} (time zone not printed)"
        return f"{self.stamp} (year and time zone not printed)"


def is_host_of(host: str, node: str) -> bool:
    """Whether a journal's host is the node of that name: the same name in any case (the kubelet
    registers its node under the hostname lowercased, the journal prints it as set), or one the
    other's first label (a journal prints the short hostname of `ip-10-0-1-5.ec2.internal`).

    >>> is_host_of("tomoyafujita-HP-Compaq-Elite-8300-SFF", "tomoyafujita-hp-compaq-elite-8300-sff")
    True
    >>> is_host_of("ip-10-0-1-5", "ip-10-0-1-5.ec2.internal"), is_host_of("node01", "node02")
    (True, False)
    """
    host, node = host.lower(), node.lower()
    return host == node or node.split(".", 1)[0] == host or host.split(".", 1)[0] == node


def journal_lines(lines: list[tuple[int, str]], source: str) -> list[JournalLine]:
    """The journal lines among numbered lines of text, in their order, with the year and zone a
    `systemctl status` header above them states.

    >>> out = [(1, "   Active: activating (auto-restart) (Result: exit-code) since Sat 2018-12-15 15:10:00 CST; 1s ago"),
    ...        (2, "Dec 15 15:10:00 demo.mo systemd[1]: Unit kubelet.service entered failed state."),
    ...        (3, "Dec 15 15:10:31 demo.mo kubelet[23474]: F1215 15:10:31.298474   23474 server.go:189] failed to load"),
    ...        (4, "2024-08-23T13:53:14+0000 node01 containerd[812]: time=... level=info")]
    >>> [(j.line, j.host, j.unit, j.when) for j in journal_lines(out, "t")]
    [(2, 'demo.mo', 'kubelet', 'Dec 15 15:10:00 2018 CST'), (3, 'demo.mo', 'kubelet', 'Dec 15 15:10:31 2018 CST'), (4, 'node01', 'containerd', '2024-08-23T13:53:14+0000')]

    Other formats of journalctl: -o short-precise, -o short-full:

    >>> out = [(1, "Aug 23 13:53:14.926448 node01 kubelet[8691]: E0823 ..."),
    ...        (2, "Fri 2024-08-23 13:53:14 UTC node01 kubelet[8691]: E0823 ...")]
    >>> [(j.stamp, j.when, j.moment) for j in journal_lines(out, "t")]
    [('Aug 23 13:53:14', 'Aug 23 13:53:14 (year and time zone not printed)', (0, 8, 23, 13, 53, 14)), ('2024-08-23T13:53:14', '2024-08-23 13:53:14 UTC', (2024, 8, 23, 13, 53, 14))]

    A line of k3s, RKE2 or containerd says its own time: its year, and its zone where its clock is
    the journal's:

    >>> out = [(1, 'Aug 18 09:46:13 sutpcnode1 k3s[64812]: time="2021-08-18T09:46:13.501046169+08:00" level=error msg="x"')]
    >>> [j.when for j in journal_lines(out, "t")]
    ['Aug 18 09:46:13 2021 +0800']

    journalctl's header dates its lines when it names both ends in one year (kind export logs):

    >>> out = [(1, "-- Logs begin at Wed 2021-05-26 01:54:58 UTC, end at Wed 2021-05-26 05:55:49 UTC. --"),
    ...        (2, "May 26 01:54:58 local-control-plane systemd[1]: Started kubelet: The Kubernetes Node Agent.")]
    >>> [(j.unit, j.when) for j in journal_lines(out, "t")]
    [('kubelet', 'May 26 01:54:58 2021 UTC')]
    """
    found: list[JournalLine] = []
    year = zone = main_pid = ""
    since_month = 0
    running: tuple[int, int, int, int, int, int] | None = None
    for no, text in lines:
        text, match = _journal_line(text)
        if match is None:
            if (since := _STATUS_SINCE.match(text)) is not None:
                year, zone, since_month = since.group("year"), since.group("zone") or "", int(since.group("month"))
                running = tuple(int(p) for p in (since.group("year"), since.group("month"), since.group("day"),
                                                 *since.group("time").split(":"))) \
                    if since.group("state") == "active" else None  # type: ignore[assignment]
            elif (pid := _MAIN_PID.match(text)) is not None:
                main_pid = pid.group("pid")
            elif (span := _LOGS_SPAN.match(text.strip())) is not None:
                same = span.group("year") == span.group("end") and span.group("zone") == span.group("end_zone")
                year, zone, since_month = (span.group("year"), span.group("zone"), 0) if same else ("", "", 0)
            continue
        ident, message = match.group("ident"), match.group("message")
        unit = _unit_of(ident, message)
        if match.group("iso"):
            found.append(JournalLine(source, no, match.group("host"), unit, ident, match.group("pid") or "",
                                     match.group("iso"), match.group("iso")[:4], match.group("zone"), message))
            continue
        if match.group("full"):
            found.append(JournalLine(source, no, match.group("host"), unit, ident, match.group("pid") or "",
                                     f"{match.group('full')}T{match.group('full_time')}", match.group("full")[:4],
                                     match.group("full_zone"), message))
            continue
        stamp = f"{match.group('month')} {int(match.group('day')):02d} {match.group('time')}"
        line_year = year
        if year and since_month:
            month = _month_number(match.group("month"))
            if month and month < since_month - 6:
                line_year = str(int(year) + 1)  # (the lines run past a new year after the state began)
        pid = match.group("pid") or ""
        line_zone = zone if line_year else ""
        if not line_zone and (own := _OWN_TIME.search(message)) is not None and own.group("clock") == match.group("time"):
            line_year, line_zone = own.group("year"), "UTC" if own.group("zone") == "Z" else own.group("zone").replace(":", "")
        found.append(JournalLine(source, no, match.group("host"), unit, ident, pid, stamp,
                                 line_year, line_zone, message,
                                 running if running is not None and pid == main_pid else None))
    return found


# What a viewer or a writer puts before each line it shows: a line number (Notepad++'s search
# results `Line 918: `, `cat -n`'s `   918<TAB>`, an editor's `918: ` or `918 | `), a quote's `>`,
# or the time a log viewer received the line (Loki, a collector's UI).
_VIEWER_PREFIX = re.compile(
    r"[ \t]*(?:(?:[Ll]ine|L) ?\d+ ?[:|] ?|\d+(?:\t| ?[:|] )|>[ \t]?"
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?[ \t]+)"
)
# (bounded: a prefix of prefixes, `> Line 918: `, no more)
_MOST_PREFIXES = 3


def _journal_line(text: str) -> tuple[str, re.Match[str] | None]:
    """A line as the journal printed it, and its match where it is a journal line: a viewer's
    prefix taken off only where what follows it is a journal line or header (so prose that
    starts with a number or a quote mark is never read as one).

    >>> _journal_line("Line 918: Aug 23 13:53:14 node01 kubelet[8691]: E0823 x")[0]
    'Aug 23 13:53:14 node01 kubelet[8691]: E0823 x'
    >>> _journal_line("> 918: nothing here")
    ('> 918: nothing here', None)
    """
    match = _LINE.match(text.strip())
    if match is not None:
        return text, match
    rest = text
    for _ in range(_MOST_PREFIXES):
        prefix = _VIEWER_PREFIX.match(rest)
        if prefix is None or not prefix.end():
            break
        rest = rest[prefix.end():]
        if (match := _LINE.match(rest.strip())) is not None:
            return rest, match
        if _STATUS_SINCE.match(rest) or _MAIN_PID.match(rest) or _LOGS_SPAN.match(rest.strip()):
            return rest, None
    return text, None


# klog's header: severity, month and day, time, thread id, file:line (the kubelet's own log file)
_KLOG = re.compile(r"^[IWEF](?P<month>\d\d)(?P<day>\d\d) (?P<time>\d\d:\d\d:\d\d)(?:\.\d+)? +(?P<pid>\d+) \S+:\d+\] ")


def klog_file_lines(lines: list[tuple[int, str]], source: str, host: str, unit: str, year: int,
                    month: int) -> list[JournalLine]:
    """The klog lines of a component's own log file (RKE2's agent-logs/kubelet.log) as the
    journal lines of `unit` on `host`, each line its message. klog prints neither the year nor
    the zone: the year is the collection's (`year`, `month`), the one before for a month after
    the collection's; the zone stays unsaid. Lines that are not klog's (`Flag --x has been
    deprecated`) are left out.

    >>> out = [(1, "Flag --containerd has been deprecated, This is a cadvisor flag"),
    ...        (2, 'I1120 00:44:40.398361    8869 server.go:520] "Kubelet version" kubeletVersion="v1.32.7+rke2r1"')]
    >>> [(j.line, j.host, j.unit, j.pid, j.when) for j in klog_file_lines(out, "t", "n1", "kubelet", 2025, 12)]
    [(2, 'n1', 'kubelet', '8869', 'Nov 20 00:44:40 2025 (time zone not printed)')]
    """
    found: list[JournalLine] = []
    names = list(_MONTHS)
    for no, text in lines:
        match = _KLOG.match(text)
        if match is None or not 1 <= int(match.group("month")) <= 12:
            continue
        line_month = int(match.group("month"))
        stamp = f"{names[line_month - 1]} {match.group('day')} {match.group('time')}"
        said_year = "" if not year else str(year - 1 if line_month > month else year)  # (0: no year known)
        found.append(JournalLine(source, no, host, unit, unit, match.group("pid"), stamp, said_year, "", text,
                                 bare=True))
    return found


def _unit_of(ident: str, message: str) -> str:
    """The unit a line is of: systemd's line about a unit is that unit's, a process's its own."""
    if ident != "systemd":
        return ident
    said = _UNIT_SAID.match(message) or _SYSTEMD_SAYS.match(message)
    if said is not None:
        return said.group("unit")
    for unit, description in _DESCRIPTIONS:
        if description.match(message):
            return unit
    return ident
