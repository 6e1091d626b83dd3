"""Container log lines as components write them: klog, zap JSON, logfmt, nginx access logs."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from synthetic.ids import hexid, pick
from synthetic.times import klog_time


def klog(severity: str, moment: datetime, source: str, message: str, *parts: object) -> str:
    """One klog line (severity, stamp, thread 1, source file, message)."""
    return f"{severity}{klog_time(moment, source, message, *parts)}       1 {source}] {message}"


def coredns_log(version: str, go: str, commit: str) -> str:
    """CoreDNS's start-up lines."""
    return "\n".join([
        ".:53",
        f"[INFO] plugin/reload: Running configuration SHA512 = {hexid(128, 'corefile', version)}",
        f"CoreDNS-{version}",
        f"linux/amd64, {go}, {commit}",
    ]) + "\n"


def kube_proxy_log(node: str, node_ip: str, started: datetime, mode: str = "iptables") -> str:
    """kube-proxy's start-up lines on a node."""
    lines = [
        klog("I", started, "server_linux.go:69", f'"Using {mode} proxy"', node),
        klog("I", started, "server.go:1050", f'"Successfully retrieved node IP(s)" IPs=["{node_ip}"]', node),
        klog("I", started + timedelta(milliseconds=40), "conntrack.go:58",
             '"Setting nf_conntrack_max" nfConntrackMax=131072', node),
        klog("I", started + timedelta(milliseconds=90), "server.go:865", '"Version info" version="v1.29.7"', node),
        klog("I", started + timedelta(milliseconds=120), "config.go:188",
             '"Starting service config controller"', node),
        klog("I", started + timedelta(milliseconds=121), "config.go:97",
             '"Starting endpoint slice config controller"', node),
        klog("I", started + timedelta(milliseconds=122), "config.go:315", '"Starting node config controller"', node),
        klog("I", started + timedelta(milliseconds=230), "shared_informer.go:318",
             '"Caches are synced" controller="service config"', node),
        klog("I", started + timedelta(milliseconds=231), "shared_informer.go:318",
             '"Caches are synced" controller="endpoint slice config"', node),
        klog("I", started + timedelta(milliseconds=232), "shared_informer.go:318",
             '"Caches are synced" controller="node config"', node),
    ]
    return "\n".join(lines) + "\n"


def json_log_lines(started: datetime, caller_prefix: str, entries: list[tuple[str, float, str, str]]) -> str:
    """Zap-style JSON lines (etcd, aws-node): (level, seconds after start, caller, message)."""
    out = []
    for level, offset, caller, message in entries:
        moment = started + timedelta(seconds=offset, microseconds=pick(900, caller, message, offset))
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(json.dumps({"level": level, "ts": stamp, "caller": f"{caller_prefix}{caller}", "msg": message},
                              separators=(",", ":")))
    return "\n".join(out) + "\n"


def app_log(started: datetime, lines: list[tuple[float, str, str]], fmt: str = "logfmt") -> str:
    """Application log lines: (seconds after start, level, message)."""
    out = []
    for offset, level, message in lines:
        moment = started + timedelta(seconds=offset)
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"
        if fmt == "logfmt":
            out.append(f'time={stamp} level={level} msg="{message}"')
        else:
            out.append(f"{stamp} {level.upper():5} {message}")
    return "\n".join(out) + "\n"


def nginx_access_log(started: datetime, count: int, source: str, paths: list[str]) -> str:
    """nginx access log lines (combined format), probes and browsers."""
    out = []
    for i in range(count):
        moment = started + timedelta(seconds=37 * i + pick(30, source, i))
        path = paths[pick(len(paths), source, i, "path")]
        client = f"10.{pick(3, source, i, 'a') + 224}.{pick(4, source, i, 'b')}.{pick(250, source, i, 'c') + 2}"
        size = 200 + pick(9000, source, i, "size")
        stamp = moment.strftime("%d/%b/%Y:%H:%M:%S +0000")
        out.append(f'{client} - - [{stamp}] "GET {path} HTTP/1.1" 200 {size} "-" "kube-probe/1.29" "-"'
                   if path == "/healthz" else
                   f'{client} - - [{stamp}] "GET {path} HTTP/1.1" 200 {size} "-" "Mozilla/5.0" "-"')
    return "\n".join(out) + "\n"
