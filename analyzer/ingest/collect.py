"""Ingestion driver: every file of every input, by content, into one accounted IngestResult."""

from __future__ import annotations

import mmap
import re
from collections import Counter
from dataclasses import replace
from datetime import UTC, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

import msgspec

from analyzer.collector import collector_paused
from analyzer.errors import InputError
from analyzer.ingest import (
    datasniff,
    journal,
    jsondocs,
    kubeadm_certs,
    kubeadm_upgrade,
    layouts,
    nodelogs,
    refusals,
    rollouts,
    runtimelog,
    shapes,
    sightings,
    transcripts,
    wrappers,
    yamldocs,
)
from analyzer.ingest.headerdate import header_date
from analyzer.ingest.objects import (
    Hints,
    list_item_kind,
    object_from_dict,
    object_from_item,
    object_from_json,
    object_from_parts,
    peek_item,
)
from analyzer.ingest.records import (
    STAMP_WIDTH,
    DeletedObject,
    JsonItem,
    KubeObject,
    LazyRaw,
    LogRecord,
    NotAnObject,
    Provenance,
    Rejection,
    Truncated,
)
from analyzer.ingest.result import (  # noqa: F401 - re-exported: EXPECTED_KINDS, IngestResult
    EXPECTED_KINDS,
    TIMESTAMP_RX,
    FileReport,
    IngestResult,
)
from analyzer.ingest.text.rows.events import placed_in
from analyzer.ingest.text.types import TEXT_FACTS_KEY
from analyzer.ingest.text.values import age_unit_seconds, changed_cells
from analyzer.ingest.textcodec import decode_text
from analyzer.ingest.tree import (
    DumpTree,
    Entry,
    MappedFile,
    gunzipped,
    is_archive,
    iter_entries,
    tree_for_bytes,
)
from analyzer.kube.keys import ObjectKey
from analyzer.kube.kinds import CLUSTER_SCOPED_KINDS
from analyzer.kube.time import parse_time
from analyzer.kube.viewparts import ItemParts, located_part
from analyzer.sensitive.credentials import MASK
from analyzer.sensitive.masking import mask_sensitive

if TYPE_CHECKING:
    from analyzer.ingest.text.commands import Command
    from analyzer.ingest.text.transcript import Block

_FRAME_UTF8 = "│".encode()
_NOT_SPACE = re.compile(rb"\S")
# A rotated container log the kubelet gzipped is inflated in memory up to this (it rotates at
# containerLogMaxSize, 10 MiB unless set): past it, named and not read.
MAX_ROTATED_LOG_BYTES = 512 * 1024**2
# While the items of a mapped file are decoded, the pages behind them are given back to the
# system in steps of this many bytes.
_RELEASE_STEP = 16 * 1024**2
# How often (in items) a List read in one scan looks up where in the file it has got to.
_LOCATE_EVERY = 256
# What a tool printed instead of a log: its own failure line, or kubectl's error.
_TOOL_ERROR = re.compile(r"^\s*(?:Command `[^`]*` failed|Error from server|error: )")
# How kubectl's own errors begin, printed where a command's output would be.
_KUBECTL_ERROR = ("Error from server", "error: ", "Unable to connect", "The connection to the server")
# What `kubectl logs` (or a tool running it) prints instead of a log it could not get; not
# "error: ", which a program's own log may well start with.
_NO_LOG = ("Error from server", "Unable to connect", "The connection to the server", "Command `")
# kubectl verbs that change no pod's labels nor which pods exist: a `logs -l` after them selects
# the pods an earlier listing with its selector showed
_SELECTS_NO_OTHER_PODS = frozenset({"get", "describe", "logs", "exec", "top", "version", "explain", "events",
                                    "cluster-info", "api-resources", "api-versions", "config", "auth", "port-forward"})
# kubectl's own error line for one container, where a log's line would be (`Error from server
# (BadRequest): container "X" in pod "P" is waiting to start: PodInitializing`)
_LOG_ERROR = re.compile(r"^\s*Error from server(?: \([A-Za-z]+\))?: ")
_LINK_STUB = re.compile(rb"^\s*(?:\.\./)*(?:[\w.-]+/)+[\w.-]+\.log\s*$")

# How much a provenance is worth when the same object is seen twice: structured beats text.
_FORMAT_RANK = {"text table": 0, "describe": 1}
# An object's conditions or taints pasted alone under the command that names it.
FRAGMENT = "text fragment"
# Table columns a change of the object leaves as they were (who it is, how old); after a
# `kubectl scale`, also what it runs and selects.
_IDENTITY_COLUMNS = frozenset({"NAME", "NAMESPACE", "AGE", "LABELS"})
_SCALE_KEEPS = frozenset({"CONTAINERS", "IMAGES", "SELECTOR"})
_NO_RESOURCES_IN = re.compile(r"No resources found in (\S+) namespace")


def _lines_before_blank(out: list[tuple[int, str]]) -> int:
    """How many lines with text an output prints before its first blank line after text."""
    count = 0
    for _, text in out:
        if text.strip():
            count += 1
        elif count:
            break
    return count
# A line of kubectl's own log (klog): severity and date, time, thread, file:line]
_KLOG_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+:\d+\] ")


# A distribution's client (oc, microk8s/k3s/minikube kubectl) run with a verb: only the lines
# holding one are looked at as command lines in pasted text.
# (two literal-led patterns: Python's re scans for a leading literal fast, not for a \b)
_CLIENT_WORDS = (re.compile(r"oc(?:\.exe)? +[a-z]"), re.compile(r"kubectl +[a-z]"))

class Ingestor:
    """Reads trees into one IngestResult; objects seen twice are kept once."""

    def __init__(self) -> None:
        self.result = IngestResult()
        self._transcript: str | None = None  # the transcript being read: later sightings win
        self._sightings: sightings.TranscriptSightings | None = None  # what it showed, by slot
        self._shown: set[int] | None = None  # slots the block being read showed
        self._listing_selector: str | None = None  # the label selector of the listing being read
        self._removed: set[int] = set()  # slots emptied (gone from the cluster) until the transcript ends
        self._transcript_report: FileReport | None = None
        # slot -> the object as read whole, whose spec later table rows of it keep (this transcript)
        self._whole_of: dict[int, KubeObject] = {}
        self._by_uid: dict[str, int] = {}
        self._by_key: dict[Any, int] = {}
        self._logs: dict[tuple[str, str, bool], int] = {}
        self._logs_of_pod: dict[tuple[str, bool], list[int]] = {}
        self._mapped: MappedFile | None = None  # the mapped file being read, if any
        # <folder>/<pod>/<container>.log and <pod>.log files of no known layout, told apart once the
        # tree's pods are read: (display, path, bytes)
        self._pod_named_logs: list[tuple[str, str, bytes]] = []
        # <namespace>-<pod> log files (rancher2_logs_collector podlogs/), split once the pods are read
        self._joined_logs: list[tuple[str, layouts.JoinedLogHint, bytes]] = []
        # a node's kubelet log files, told which run of their container they hold once the pods are read
        self._node_logs: list[nodelogs.NodeLogFile] = []
        # a component's own log in a collector folder that names no node (renamed), read once the
        # folder's systeminfo/hostname is: (entry, bytes, depth, hint); and those files' words by folder
        self._unnamed_component_logs: list[tuple[Entry, bytes, int, layouts.ComponentLogHint]] = []
        self._systeminfo: dict[tuple[str, str], str] = {}
        self._stamped_names: set[str] = set()  # archives and folders a collector named by its time

    # -- entry points ---------------------------------------------------------------------

    def add_tree(self, tree: DumpTree, depth: int = 0) -> None:
        self.result.inputs.append(tree.name)
        with collector_paused(freeze=True):  # parsed documents hold no cycles
            for entry, data in iter_entries(tree):
                if isinstance(data, InputError):
                    self.reject_input(entry.display, data.reason)
                    continue
                try:
                    self.add_file(entry, data, depth)
                except Exception as exc:  # noqa: BLE001 - one file's bug must not lose the rest
                    # What the file gave before the failure stays; the rest of it is refused.
                    self.reject_input(entry.display, f"internal error while reading this file "
                                      f"({type(exc).__name__}: {exc}); please report it")
        self._add_pod_named_logs()
        self._forget_static_manifests()
        self._add_joined_logs()
        self._add_node_logs()
        self._add_unnamed_component_logs()
        # after the walk: a folder learns what it skips while listing its files
        for path, reason in getattr(tree, "skipped", []):
            self.result.skipped.append(Rejection(path, "", reason))
        for exc in getattr(tree, "refused", []):  # archive members refused while reading it
            self.reject_input(exc.source, exc.reason)

    def add_file(self, entry: Entry, data: bytes | MappedFile, depth: int = 0) -> None:
        """Read one file by its content."""
        stamped = layouts.stamped_capture_time(entry.display)
        if stamped is not None and stamped[1] not in self._stamped_names:
            self._stamped_names.add(stamped[1])
            self.result.stated_capture_times.append(stamped)
        # (by where it is shown: a collector's archive is named by the node its members are of)
        component = layouts.component_log_hint(entry.display)
        if component is not None and not component.host:
            self._unnamed_component_logs.append(
                (entry, bytes(data.map[:]) if isinstance(data, MappedFile) else data, depth, component))
            return
        if component is not None and self._add_component_log(
                entry.display, data.map[:] if isinstance(data, MappedFile) else data, component):
            return
        self._add_file_content(entry, data, depth)

    def _add_file_content(self, entry: Entry, data: bytes | MappedFile, depth: int) -> None:
        """Read one file by its content (a component's own log aside)."""
        if isinstance(data, MappedFile):
            self._add_mapped_file(entry, data, depth)
            return
        display = entry.display
        if is_archive(data):
            rotated = layouts.node_log_hint(entry.path) if entry.path else None
            if rotated is not None and rotated.rotated is not None:
                # a run's rotated log, gzipped by the kubelet: read with its run, never as an archive
                self._node_logs.append(nodelogs.NodeLogFile(display, rotated, data))
                return
            if entry.path and layouts.is_not_objects(entry.path):
                # an archive of a place known to hold no objects (rancher2_logs_collector's
                # agent-logs/kubelet-*.log.gz, a must-gather node's sysinfo.tgz of /proc and
                # /sys): its members' paths, inside it, no longer say so
                self.result.files.append(FileReport(display, "ignored"))
                self.result.skipped.append(Rejection(display, "", layouts.not_objects_reason(entry.path) or layouts.BUNDLE_METADATA))
                return
            self._add_archive(display, data, depth)
            return
        if _NOT_SPACE.search(data) is None:  # (strip() would copy a 600 MB file to learn this)
            self.result.files.append(FileReport(display, "empty"))
            return
        if data[:_TAR_BLOCK] == _ZERO_BLOCK and not data.lstrip(b"\0"):
            # a tar's end marker alone (troubleshoot's copyFromHost of a path the node lacked)
            self.result.files.append(FileReport(display, "empty"))
            self.result.skipped.append(Rejection(display, "", "zero bytes only: an empty tar archive, holding nothing"))
            return
        hint = layouts.object_hint(entry.path) if entry.path else None
        node_log = layouts.node_log_hint(entry.path) if entry.path else None
        if node_log is not None:
            self._node_logs.append(nodelogs.NodeLogFile(display, node_log, data))
            return
        log_hint = layouts.log_hint(entry.path) if entry.path else None
        if log_hint is not None:
            self._add_log_file(display, data, log_hint)
            return
        joined = layouts.joined_log_hint(entry.path) if entry.path else None
        if joined is not None:
            self._joined_logs.append((display, joined, data))
            return
        # A side file's path is only a guess: one that holds objects (a List, kubectl 1.8's
        # `Items`) is read as any other file, never skipped as metadata.
        if entry.path and layouts.is_not_objects(entry.path) and (
                layouts.path_decides_not_objects(entry.path) or datasniff.data_shape(data) != datasniff.OBJECTS):
            # (a file named `version` is must-gather's image name, or `kubectl version` a
            # collector saved: the server version is read from the latter)
            if layouts.holds_node_journal(entry.path) and self._add_journal_file(
                    display, data, whole=False, what=layouts.not_objects_reason(entry.path) or ""):
                return
            if not (_KUBECTL_VERSION.match(data) and self._add_kubectl_message(entry, display, data)):
                self._add_side_file(entry, data, display)
            return
        try:
            data = _normalise_bytes(data, display)
        except InputError as exc:
            self.reject_input(display, exc.reason)
            return
        if _is_wrapped(data):
            unwrapped = self._unwrap(display, data)
            if unwrapped is None:
                return  # a tool's `kubectl logs`: read as the pod's log
            data = unwrapped
        if hint is not None and hint.kind:
            self.result.hinted_files.setdefault(hint.kind, []).append(display)
        elif entry.path and (named := layouts.command_output_kind(entry.path)) is not None:
            # a collector's `kubectl get <res>` file: that kind was collected, whether or not its
            # table can be read as objects (never "not collected" when its file is there)
            self.result.hinted_files.setdefault(named, []).append(display)
        if hint is None and transcripts.may_be_transcript(data) and self._add_transcript(display, data):
            return
        read_before, rejected_before = self.result.objects_read, len(self.result.input_rejections)
        if self._add_content(display, data, hint):
            if self.result.objects_read == read_before and len(self.result.input_rejections) == rejected_before:
                self._check_yield(display, data, hint)
            return
        if datasniff.data_shape(data) == datasniff.OBJECTS:
            self.reject_input(display, "looks like Kubernetes data (a List or objects) but could not be read "
                              "as JSON, YAML or kubectl text")
            return
        if hint is None and _POD_NAMED_LOG.search(entry.path):
            self._pod_named_logs.append((display, entry.path, data))
            return
        if self._add_kubectl_message(entry, display, data):
            return
        if hint is None and self._add_quoted_refusals(display, data):
            return
        if hint is None and self._add_journal_file(display, data,
                                                   whole=not (entry.path and layouts.holds_node_journal(entry.path))):
            return
        if hint is None and _POD_ALONE_LOG.search(entry.path):
            self._pod_named_logs.append((display, entry.path, data))  # (told once the pods are read)
            return
        if entry.path.endswith((".log", ".txt")) and hint is None:
            self.result.files.append(FileReport(display, "ignored"))
            self.result.skipped.append(Rejection(display, "", "plain text that is neither a dump nor a known log layout"))
            return
        self.reject_input(display, "not a Kubernetes dump: neither JSON, YAML objects, nor kubectl text")

    def _check_yield(self, display: str, data: bytes, hint: layouts.PathHint | None) -> None:
        """A file read without a single object candidate: an empty List is fine, but a file
        that looks like objects and gave none is rejected, never passed over."""
        if datasniff.data_shape(data) != datasniff.OBJECTS:
            return
        what = f"{hint.kind} " if hint is not None and hint.kind else ""
        self._record_input_rejection(Rejection(
            display, "", f"looks like Kubernetes {what}data (a List or objects) but no object could be read from it"))

    def _add_mapped_file(self, entry: Entry, mapped: MappedFile, depth: int) -> None:
        """A large file: one plain JSON document of objects is parsed in place from its
        mapping, and its objects' raw bytes stay there; anything else is read into memory."""
        data = mapped.map
        parsed = None
        if (
            not _holds_no_objects(entry.path)
            and not is_archive(data[:512])
            and not _foreign_encoding(data)
            and not _is_wrapped(data)
            and jsondocs.looks_like_json(data)
        ):
            parsed = jsondocs.read_single_document(data)
        if parsed is None and self._add_mapped_yaml(entry, mapped):
            return
        if parsed is None or not _is_object_like(parsed.documents[0].envelope):
            copy = data[:]
            mapped.release()  # read from the copy: the pages the copy touched can go
            self.add_file(entry, copy, depth)
            return
        hint = layouts.object_hint(entry.path) if entry.path else None
        self._mapped = mapped
        try:
            self._add_json(entry.display, parsed, hint)
        finally:
            self._mapped = None

    def _add_mapped_yaml(self, entry: Entry, mapped: MappedFile) -> bool:
        """A large YAML file read from its mapping a range at a time, never its bytes and text
        whole (yamlchunks), where what `add_file` would decide on its whole text is decided
        on its head; False where the file must be read whole (it was not read then)."""
        if _holds_no_objects(entry.path):
            return False
        if is_archive(mapped.map[:512]):
            return False
        # (imported here, with the YAML parsers: JSON dumps never need them)
        from analyzer.ingest import yamlchunks

        source = yamlchunks.MappedText.open(mapped.map)
        if source is None:
            return False
        head = source.head_bytes
        hint = layouts.object_hint(entry.path) if entry.path else None
        if (
            _NOT_SPACE.search(head) is None or _is_wrapped(head) or jsondocs.looks_like_json(head)
            or (hint is None and transcripts.may_be_transcript(head))
            or not yamldocs.looks_like_yaml(source.head)
        ):
            return False
        parsed = yamlchunks.read_yaml_buffer(source, mapped.release)
        mapped.release()
        if parsed is None:
            return False
        if hint is not None and hint.kind:
            self.result.hinted_files.setdefault(hint.kind, []).append(entry.display)
        read_before, rejected_before = self.result.objects_read, len(self.result.input_rejections)
        self._add_yaml_file(entry.display, parsed, hint)
        if self.result.objects_read == read_before and len(self.result.input_rejections) == rejected_before:
            self._check_yield(entry.display, head, hint)
        return True

    def _add_archive(self, display: str, data: bytes, depth: int) -> None:
        if depth >= 3:
            self.reject_input(display, "archive nested more than 3 deep; not opened")
            return
        try:
            inner = tree_for_bytes(data, display)
        except InputError as exc:
            self.reject_input(display, exc.reason)
            return
        self.add_tree(inner, depth + 1)
        self.result.inputs.pop()

    def _unwrap(self, display: str, data: bytes) -> bytes | None:
        """Remove a tool-call record or a terminal frame around the kubectl output (None when the
        record was a `kubectl logs` and its output was kept as the pod's log)."""
        text = data.decode("utf-8", "replace")
        unwrapped = wrappers.unwrap_tool_output(text)
        if unwrapped is not None:
            self.result.skipped.append(Rejection(
                display, f"lines 1-{unwrapped.header_lines}", "tool-call header (HolmesGPT record), not Kubernetes objects"))
            if unwrapped.trailer:
                self.result.skipped.append(Rejection(display, "stderr", f"tool's stderr: {unwrapped.trailer[:80]!r}"))
            text = unwrapped.body
            if unwrapped.command and self._add_tool_log(display, unwrapped.command, text):
                return None
            # The command as a prompt line tells the text parser what the table holds.
            if unwrapped.command and not (jsondocs.looks_like_json(text.encode()) or yamldocs.looks_like_yaml(text)):
                text = unwrapped.body_with_prompt()
        if wrappers.looks_framed(text):
            self.result.skipped.append(Rejection(display, "", "terminal frame (k9s box-drawing │ and padding) removed"))
            text = wrappers.strip_frame(text)
        elif "│" in text and (runs := wrappers.framed_runs(text)):
            for first, last in runs:
                self.result.skipped.append(Rejection(
                    display, f"lines {first}-{last}", "terminal frame (k9s box-drawing │ and padding) removed"))
            text = wrappers.strip_framed_runs(text, runs)
        return text.encode("utf-8")

    def _add_tool_log(self, display: str, command_text: str, body: str) -> bool:
        """The output of a tool's `kubectl logs POD` as that pod's log; False for another command,
        a selector's logs, or the error the command printed instead of a log (left to be named
        as the text it is)."""
        from analyzer.ingest.text.commands import parse_command

        command = parse_command(command_text)
        if command is None or command.verb != "logs" or command.piped:
            return False
        target = transcripts.log_target(command.flags, command.names, command.resources)
        lines = body.split("\n")
        first = next((i for i, t in enumerate(lines) if t.strip()), None)
        if target is None or first is None or _TOOL_ERROR.match(lines[first]) or _KUBECTL_CRASH.search(body.lstrip()):
            return False
        text = "\n".join(lines[first:]).rstrip("\n") + "\n"
        self.result.files.append(FileReport(display, "kubectl logs", logs=1))
        self._add_log(LogRecord(target.namespace, target.pod, target.container, text, display, target.previous,
                                line=first + 1))
        return True

    def _without_trailing_error(self, display: str, command_text: str,
                                out: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """A pasted log without kubectl's own error at its end, which is accounted for as what it
        is: `kubectl logs --all-containers` prints each container's log in turn and stops at the
        first it cannot get (`Error from server (BadRequest): container "flexvol-driver" in pod
        ... is waiting to start: PodInitializing`); that line is kubectl's, not the pod's."""
        end = len(out)
        while end and not out[end - 1][1].strip():
            end -= 1
        start = end
        while start and _LOG_ERROR.match(out[start - 1][1]):
            start -= 1
        if start == end or not any(t.strip() for _, t in out[:start]):
            return out  # no error at the end, or nothing but it (the branch above names that)
        for no, said in out[start:end]:
            self.result.skipped.append(Rejection(display, f"line {no}", f"kubectl's error after the log of "
                                                 f"'{_short(command_text)}', not part of it: {_short(said.strip(), 200)}"))
        return out[:start]

    def _add_content(self, display: str, data: bytes, hint: layouts.PathHint | None) -> bool:
        """Read text by what it is: JSON, YAML, or pasted kubectl text; False if none of these."""
        if jsondocs.looks_like_json(data):
            parsed = jsondocs.read_json_file(data, display)
            # A JSON preamble before pasted kubectl output (tool wrappers) is not a dump.
            if any(_is_object_like(d.envelope) for d in parsed.documents) or not self._add_text(
                display, data.decode("utf-8", "replace")
            ):
                self._add_json(display, parsed, hint)
            return True
        text = data.decode("utf-8", "replace")
        if yamldocs.looks_like_yaml(text):
            self._add_yaml(display, text, hint)
            return True
        if self._add_text(display, text):
            self._add_refusals(text, display)
            return True
        if jsondocs.has_log_blocks(data):
            # the logs part of a cluster-info dump's stdout, cut out or pasted on its own
            self._add_json(display, jsondocs.read_json_file(data, display), hint)
            return True
        return False

    def _add_refusals(self, text: str, display: str) -> None:
        """What the API server answered that a paste quotes: webhooks and kubelets it could not
        reach, evictions a disruption budget forbade, aggregated APIs that did not answer, kinds
        at apiVersions it does not serve, its
        certificate kubectl would not trust; the certificates kubeadm listed with their expiry; and
        what `kubectl rollout status` said of the rollouts it watched."""
        self.result.webhook_failures.extend(refusals.webhook_failures(text, display))
        self.result.kubelet_unreachable.extend(refusals.kubelet_unreachable(text, display))
        self.result.eviction_refusals.extend(refusals.eviction_refusals(text, display))
        self.result.discovery_failures.extend(refusals.discovery_failures(text, display))
        self.result.unserved_apis.extend(refusals.unserved_apis(text, display))
        self.result.server_certificate_refusals.extend(refusals.server_certificate_refusals(text, display))
        self.result.certificate_expiries.extend(kubeadm_certs.certificate_expiries(text, display))
        self.result.kubeadm_upgrades.extend(kubeadm_upgrade.kubeadm_upgrades(text, display))
        self.result.quoted_cordons.extend(sightings.quoted_cordons(text, display))
        self.result.rollout_verdicts.extend(rollouts.rollout_verdicts(text, display))

    def _add_quoted_refusals(self, display: str, data: bytes) -> bool:
        """Text that is no dump but quotes the API server's refusals (a `kubectl drain`'s output
        pasted without its command: k3d-io/k3d#1414) or `kubectl rollout status`'s verdicts (a CI
        log: kubernetes/kubernetes#95550): read for them, not rejected."""
        text = data.decode("utf-8", "replace")

        def quoted_now() -> int:
            r = self.result
            return (len(r.webhook_failures) + len(r.kubelet_unreachable) + len(r.eviction_refusals)
                    + len(r.discovery_failures) + len(r.server_certificate_refusals) + len(r.unserved_apis))

        before, cordons = quoted_now(), len(self.result.quoted_cordons)
        verdicts_before = len(self.result.rollout_verdicts)
        certificates_before = len(self.result.certificate_expiries)
        upgrades_before = len(self.result.kubeadm_upgrades)
        self._add_refusals(text, display)
        quoted, verdicts = quoted_now() - before, len(self.result.rollout_verdicts) - verdicts_before
        certificates = len(self.result.certificate_expiries) - certificates_before
        upgrades = len(self.result.kubeadm_upgrades) - upgrades_before
        if not quoted and not verdicts and not certificates and not upgrades:
            del self.result.quoted_cordons[cordons:]  # the file is not read: nothing of it is kept
            return False
        if upgrades and not self.result.server_version:  # the cluster's version as kubeadm read it
            self.result.server_version = transcripts.kubeadm_cluster_version(text)
        said = ([f"{quoted} refusal(s) of the API server (a webhook or kubelet it could not reach, an eviction a "
                 "disruption budget forbade, an aggregated API that did not answer, a kind at an apiVersion it does "
                 "not serve, its certificate kubectl would not trust)"] if quoted else []) \
            + ([f"what `kubectl rollout status` said of {verdicts} rollout(s)"] if verdicts else []) \
            + ([f"{certificates} certificate(s) `kubeadm certs check-expiration` listed"] if certificates else []) \
            + ([f"{upgrades} `kubeadm upgrade` run(s), their versions and outcome"] if upgrades else [])
        self.result.files.append(FileReport(display, "kubectl-text"))
        tool = "kubectl's" if quoted or verdicts else "kubeadm's"
        self.result.skipped.append(Rejection(display, "", f"{tool} output quoting {' and '.join(said)}: no objects"))
        return True


    # -- transcripts ------------------------------------------------------------------------

    def _add_transcript(self, display: str, data: bytes) -> bool:
        """A terminal session, write-up, ticket or CI log: each block read by its command, every
        other block named with its lines and why it was skipped. False if the text is not one."""
        from analyzer.ingest.text.transcript import looks_like_transcript, split_transcript

        text = data.decode("utf-8", "replace")
        if not looks_like_transcript(text):
            return False
        split = split_transcript(text)
        if (stated := header_date(text)) is not None:
            self.result.header_times.append((stated.iso, f'{_tail_name(display)} line {stated.line} "{stated.text}"'))
        self._add_refusals(text, display)
        report = FileReport(display, "transcript")
        self.result.files.append(report)
        if split.unwrapped:
            self.result.skipped.append(Rejection(display, "", "transcript: " + ", ".join(split.unwrapped)
                                                 + " taken off the lines before reading"))
        self._transcript = display
        self._sightings = sightings.TranscriptSightings()
        self._transcript_report = report
        try:
            for block in transcripts.linked_blocks(split.blocks):
                before = len(self.result.files)
                self._add_block(display, block, report)
                # the readers' own file entries are this transcript's: one entry for the file
                for extra in self.result.files[before:]:
                    report.objects += extra.objects
                    report.logs += extra.logs
                del self.result.files[before:]
            self._platform_listings_in_kube_system(display)
            if not any(b.command_text and sightings.switches_namespace(b.command_text) for b in split.blocks):
                self._assume_default_namespace(display, self._sightings.context_namespace)
            if not self.result.server_version:  # `kubectl version` asked the server itself: it comes first
                self.result.server_version = transcripts.kubeadm_cluster_version(text)
        finally:
            self._transcript = None
            self._sightings = self._transcript_report = None
            self._whole_of = {}
            self._compact()
        return True

    def _compact(self) -> None:
        """Take the slots of objects gone from the cluster out of the object list and its indexes."""
        if not self._removed:
            return
        res = self.result
        moved: dict[int, int] = {}
        kept = []
        for slot, obj in enumerate(res.objects):
            if obj is not None:
                moved[slot] = len(kept)
                kept.append(obj)
        res.objects[:] = kept
        self._by_key = {key: moved[slot] for key, slot in self._by_key.items() if slot in moved}
        self._by_uid = {uid: moved[slot] for uid, slot in self._by_uid.items() if slot in moved}
        self._removed = set()

    def _forget(self, slot: int, reason: str) -> None:
        """An object this transcript showed is gone from the cluster by a later command: accounted
        for as a superseded sighting, with the reason, and no longer kept."""
        res = self.result
        obj = res.objects[slot]
        res.skipped.append(Rejection(obj.provenance.source, obj.provenance.location, f"{obj.key.id} superseded: {reason}"))
        res.duplicates += 1
        res.collected_kinds.add(obj.kind)  # the transcript did show that kind: never "not collected"
        if self._by_key.get(obj.key) == slot:
            del self._by_key[obj.key]
        if obj.uid and self._by_uid.get(obj.uid) == slot:
            del self._by_uid[obj.uid]
        if self._sightings is not None:
            self._sightings.forget(slot, obj)
        if self._transcript_report is not None:
            self._transcript_report.objects -= 1
        self._whole_of.pop(slot, None)
        res.objects[slot] = None  # (taken out when the transcript ends; slots stay valid until then)
        self._removed.add(slot)

    def _state_unknown(self, slot: int, verb: str, change: str) -> None:
        """A table row of an object a later command changed (`kubectl scale/edit/patch/apply`):
        the object still exists, as last seen, but what the change could alter is no longer
        known (for `scale`: its replicas and status; otherwise its spec and status)."""
        obj = self.result.objects[slot]
        body = obj.body() if obj is not None else None
        if not isinstance(body, dict):
            return
        kept = {k: v for k, v in body.items() if k not in ("status", "spec", TEXT_FACTS_KEY)}
        if verb == "scale" and isinstance(body.get("spec"), dict):
            kept["spec"] = {k: v for k, v in body["spec"].items() if k != "replicas"}
        facts = body.get(TEXT_FACTS_KEY) or {}
        columns = facts.get("columns") or {}
        same = _IDENTITY_COLUMNS | (_SCALE_KEEPS if verb == "scale" else frozenset())
        shown = ", ".join(f"{k} {v}" for k, v in columns.items() if k not in same)
        kept[TEXT_FACTS_KEY] = {k: v for k, v in facts.items() if k in ("age_seconds", "roles", "default")}
        # what the change may have altered prints as kubectl prints what it cannot tell
        kept[TEXT_FACTS_KEY]["columns"] = {k: (v if k in same else "<unknown>") for k, v in columns.items()}
        made = _remade(obj, kept, f"state unknown: changed by {change} after this table"
                       + (f" (it showed {shown})" if shown else ""))
        if made is obj:
            return
        made.duplicates = obj.duplicates
        self.result.objects[slot] = made
        self._whole_of.pop(slot, None)  # its spec as read whole is no longer current either

    def _schedulable_since(self, slot: int, cordoned: bool, change: str) -> None:
        """A node's table row, after a later `kubectl cordon/uncordon/drain` said what it left
        the node: cordoned or not is known again (the rest of the row is as it was)."""
        obj = self.result.objects[slot]
        body = obj.body() if obj is not None else None
        if not isinstance(body, dict) or bool((body.get("spec") or {}).get("unschedulable")) == cordoned:
            return
        spec = {k: v for k, v in (body.get("spec") or {}).items() if k != "unschedulable"}
        if cordoned:
            spec["unschedulable"] = True
        def restated(status: str) -> str:  # kubectl's STATUS: "Ready,SchedulingDisabled" when cordoned
            words = [w for w in status.split(",") if w != "SchedulingDisabled"]
            return ",".join(words + (["SchedulingDisabled"] if cordoned else []))

        facts = dict(body.get(TEXT_FACTS_KEY) or {})
        if isinstance(facts.get("status"), str):
            facts["status"] = restated(facts["status"])
        if isinstance(facts.get("columns"), dict) and isinstance(facts["columns"].get("STATUS"), str):
            facts["columns"] = {**facts["columns"], "STATUS": restated(facts["columns"]["STATUS"])}
        made = _remade(obj, {**body, "spec": spec, TEXT_FACTS_KEY: facts},
                       f"{'cordoned' if cordoned else 'uncordoned'} by {change} after this table")
        if made is obj:
            return
        made.duplicates = obj.duplicates
        self.result.objects[slot] = made

    def _forget_not_listed(self, listing: sightings.Listing, block: Block, shown: set[int], display: str = "") -> None:
        """Earlier table rows of a full listing's scope that it no longer shows are gone (and
        the listing is kept: what it does not show was not there when it was printed)."""
        res = self.result
        scopes = [listing]
        if listing.namespace == "":
            # no -n: the session's own namespace; the rows it shows say which one it was
            stated = {res.objects[s].namespace for s in shown if res.objects[s] is not None} - {""}
            if len(stated) == 1:
                scopes.append(sightings.Listing(listing.kinds, stated.pop(), listing.selector))
        for scope in scopes:
            self._sightings.listed_by_selector(scope, shown, res.objects, block.first)
            if display and not scope.selector and scope.namespace != "":
                res.full_listings.append((display, block.first, scope.kinds, scope.namespace, _short(block.command_text)))
            for slot in self._sightings.not_shown(scope, shown, res.objects):
                self._forget(slot, f"not in the later full listing at line {block.first} "
                             f"('{_short(block.command_text)}'), so gone")

    def _selected_log_target(self, command: Command) -> transcripts.LogTarget | None:
        """Whose log `kubectl logs -l SELECTOR` printed when the last full listing with that
        selector, with no command since that may change what it selects, showed one pod."""
        selector = command.flags.get("--selector", "")
        if self._sightings is None or not selector or command.names or command.resources:
            return None
        namespace = command.flags.get("--namespace", "")
        pod = self._sightings.selected_pod(namespace, selector, self.result.objects)
        if pod is None:
            return None
        container = command.flags.get("-c") or command.flags.get("--container") or ""
        previous = "--previous" in command.flags or "-p" in command.flags
        return transcripts.LogTarget(namespace or pod.namespace, pod.name, container, previous)

    def _forget_deleted(self, display: str, block: Block, command: Command, out: list[tuple[int, str]]) -> None:
        """What `kubectl delete` says it deleted is gone, with what its controller owned."""
        res = self.result
        for what in sightings.deleted_objects(command, out):
            slots, why = self._sightings.deleted(what, res.objects)
            if why is not None:
                res.skipped.append(Rejection(display, f"line {what.line}", f"{what.kind} {what.name} deleted: {why}"))
                continue
            for slot in slots:
                obj = res.objects[slot]
                named = obj.kind == what.kind and obj.name == what.name
                with_owner = "" if named else f" with its owner {what.kind} {what.name}"
                res.deleted.append(DeletedObject(obj, block.command_text or "", display, what.line,
                                                 "" if named else f"{what.kind} {what.name}"))
                self._forget(slot, f"deleted{with_owner} by '{_short(block.command_text)}' (line {what.line})")

    def _add_block(self, display: str, block: Block, report: FileReport) -> None:
        skip = self.result.skipped
        if (printed := transcripts.printed_time(block)) is not None:
            self.result.printed_times.append((printed[0], f"{printed[1]}, {display} line {block.first}"))
        out = [(ln.no, ln.text) for ln in block.output()]
        switched = None
        if self._sightings is not None and block.command_text and sightings.switches_namespace(block.command_text):
            # `oc project web` says where the session lists from now on; `kubectx prod` does not
            switched = sightings.namespace_switched_to(block.command_text, out)
            self._sightings.context_namespace = switched
            self._sightings.context_why = f"the session's namespace since '{_short(block.command_text)}'" \
                if switched else ""
        shown = any(text.strip() for _, text in out)
        if block.kind == "history":
            skip.append(Rejection(display, block.span, "shell history listing: commands without their output"))
            return
        if block.kind == "command" and shown and self._add_foreign_output(display, block, out):
            return
        if block.kind == "command" and shown and transcripts.helm_release_resources(out) \
                and self._add_text(display, transcripts.placed(out)):
            self.result.skipped.append(Rejection(display, block.span, f"'{_short(block.command_text)}' is Helm's: "
                                                 "the tables under its RESOURCES read as kubectl's, in the namespace "
                                                 "its release head states"))
            return
        if block.kind == "command":
            if block.command_text and (dist := transcripts.distribution_cli(block.command_text)):
                self.result.cli_tools[dist] = self.result.cli_tools.get(dist, 0) + 1
                prepared = transcripts.minikube_kubernetes_version("\n".join(t for _, t in out)) \
                    if dist == "minikube" else None
                if prepared and not self.result.server_version:
                    self.result.server_version = prepared
            what = f"output of '{_short(block.command_text)}'" if shown else f"'{_short(block.command_text)}' (no output shown)"
            if shown and self._add_journal(display, block, out, what):
                return
            skip.append(Rejection(display, block.span, f"{what}: not kubectl"))
            return
        command = block.command
        if command is not None and block.command_text and (tool := transcripts.cli_tool(block.command_text)):
            self.result.cli_tools[tool] = self.result.cli_tools.get(tool, 0) + 1
        if switched is not None and any(sightings.switch_message(t) for _, t in out) \
                and not _looks_like_kubectl_text("\n".join(t for _, t in out if not sightings.switch_message(t))):
            # (`oc new-project x` goes on with advice: "You can add applications to this project ...")
            skip.append(Rejection(display, block.span, f"'{_short(block.command_text)}': the session lists "
                                  f"namespace {switched} from here"))
            return
        if block.kind == "text" or command is None:
            self._add_text_block(display, block, out)
            return
        verb = command.verb
        if not shown:
            skip.append(Rejection(display, block.span, f"'{_short(block.command_text)}': no output shown"))
            return
        if self._sightings is not None and verb.split()[0] not in _SELECTS_NO_OTHER_PODS:
            self._sightings.forget_selections()
        if verb == "delete" and self._sightings is not None:
            self._forget_deleted(display, block, command, out)  # (also beside "not found" errors)
        # (kubectl's own log lines, `E1126 21:58:32.715 23900 memcache.go:265] ...`, come before
        # the error it ends with when it cannot reach the server)
        told = [t.strip() for _, t in out if t.strip() and not _KLOG_LINE.match(t)]
        said = told[0] if told else next((t.strip() for _, t in out if t.strip()), "")
        if said.startswith("No resources found"):
            # kubectl's one line; a session typed without fences goes on with the writer's prose
            # after a blank line (a heading, a list: the notes of a session)
            told = told[:_lines_before_blank(out)]
        listing = sightings.full_listing(command) if self._sightings is not None and not sightings.elided(out) else None
        # (a tool's "Command `kubectl logs ...` failed" before kubectl's error is as much an error)
        if (said.startswith(("No resources found", *_KUBECTL_ERROR)) or _TOOL_ERROR.match(said)) \
                and len(told) <= 3:
            skip.append(Rejection(display, block.span, f"'{_short(block.command_text)}' printed no objects: {_short(said)}"))
            if listing is not None and said.startswith("No resources found"):
                # an empty listing: nothing of its scope is left (kubectl names the namespace)
                stated = _NO_RESOURCES_IN.match(said)
                if stated is not None and listing.namespace == "":
                    listing = sightings.Listing(listing.kinds, stated.group(1), listing.selector)
                self._forget_not_listed(listing, block, set(), display)
                self.result.collected_kinds.update(listing.kinds)
            return
        if verb == "version":
            printed = "\n".join(t for _, t in out)
            version = transcripts.server_version(printed) or transcripts.oc3_version(printed)[1]
            if version and not self.result.server_version:
                self.result.server_version = version
            skip.append(Rejection(display, block.span, f"kubectl version: server version {version} read" if version
                                  else "kubectl version: no server version in its output"))
            return
        if verb == "logs":
            target = transcripts.log_target(command.flags, command.names, command.resources)
            target = target or self._selected_log_target(command)
            if target is None:
                skip.append(Rejection(display, block.span, f"output of '{_short(block.command_text)}': logs of "
                                      "pods the command does not name one by one"))
                return
            # cluster-info dump's log sections pasted after it are read as such, not as this log
            sections = next((i for i, (_, t) in enumerate(out) if jsondocs.has_log_blocks(t.encode())), None)
            if sections is not None:
                self._add_structured_block(display, block, out[sections:], "json")
                out = out[:sections]
            if said.startswith(_NO_LOG):
                # kubectl printed its error instead of a log (more than a few lines follow: what
                # comes after the error's paragraph is the paste's own, prose or another output)
                end = next((i for i, (_, t) in enumerate(out) if i and not t.strip()), len(out))
                first, last = out[0][0], out[end - 1][0]
                skip.append(Rejection(display, f"line {first}" if first == last else f"lines {first}-{last}",
                                      f"'{_short(block.command_text)}' printed no log: {_short(said)}"))
                if end < len(out):
                    self._add_text_block(display, block, out[end:])
                return
            out = self._without_trailing_error(display, block.command_text, out)
            text = "\n".join(t for _, t in out).strip("\n") + "\n"
            if _KUBECTL_CRASH.search(text):
                skip.append(Rejection(display, block.span, f"'{_short(block.command_text)}' crashed: a Go panic "
                                      "of kubectl itself (its k8s.io/kubectl frames), no log of the pod"))
                return
            if text.strip():
                first = next(no for no, t in out if t.strip())
                self._add_log(LogRecord(target.namespace, target.pod, target.container, text, display, target.previous,
                                        line=first))
                report.logs += 1
            return
        if verb == "cluster-info" and "dump" not in command.resources:
            skip.append(Rejection(display, block.span, "kubectl cluster-info prints endpoints, no objects"))
            return
        if verb != "delete" and self._sightings is not None:
            for what in sightings.changed_objects(command, out):
                for slot in self._sightings.changed(what, self.result.objects):
                    self._state_unknown(slot, verb, f"'{_short(block.command_text)}' (line {what.line})")
            for what, cordoned in sightings.cordoned_nodes(out):
                for slot in self._sightings.changed(what, self.result.objects):
                    self._schedulable_since(slot, cordoned, f"'{_short(block.command_text)}' (line {what.line})")
        if verb == "exec" and (failed := refusals.dns_failure(block.command_text, out, display, command.namespace)):
            self.result.dns_failures.append(failed)  # a lookup in a pod no DNS server answered
        reason = transcripts.dry_run_reason(command.flags, command.output) or transcripts.no_objects_reason(verb)
        if reason is not None and (start := transcripts.output_of_a_left_out_command(verb, out)) is not None:
            # (website#22888: `> kubectl set image ...` quoted, then a describe's Events in a fence)
            if start:
                skip.append(Rejection(display, f"lines {out[0][0]}-{out[start - 1][0]}",
                                      f"{reason} ('{_short(block.command_text)}')"))
            skip.append(Rejection(display, f"line {out[start][0]}", f"kubectl {verb.split()[0]} prints no table or "
                                  f"describe: the output from here is another command's, left out of the paste, "
                                  f"read as such ('{_short(block.command_text)}' above it)"))
            self._add_text_block(display, block, out[start:])
            return
        if reason is not None:
            skip.append(Rejection(display, block.span, f"{reason} ('{_short(block.command_text)}')"))
            return
        if self._add_named_fragment(display, block, command, out):
            return
        output = (command.output or "").split("=", 1)[0]
        if output in ("json", "yaml") or verb == "cluster-info":
            self._add_structured_block(display, block, out, "yaml" if output == "yaml" else "json",
                                       _named_hint(command, "kubectl-yaml" if output == "yaml" else "kubectl-json"))
            return
        if output in ("name", "jsonpath", "go-template", "custom-columns-file", "template"):
            if output != "name" or not self._add_names(display, command, out):
                skip.append(Rejection(display, block.span, f"output of '{_short(block.command_text)}' is "
                                      f"{output}, which names no whole object"))
            return
        prompt = (block.first, "$ " + _normalised(block.command_text))
        if command.show_labels:
            out = transcripts.labels_rejoined(out)
        text = transcripts.placed(out, prompt)
        cut_before = len(self.result.input_rejections)
        self._shown = set()
        self._listing_selector = listing.selector if listing is not None else None
        try:
            read = self._add_text(display, text)
        finally:
            shown, self._shown, self._listing_selector = self._shown, None, None
        if read and listing is not None and _cut_rows(self.result.input_rejections[cut_before:],
                                                      [self.result.objects[s] for s in shown]):
            # a paste that ends inside the listing (its last row cut short) shows only its top:
            # what it does not show may be below the cut, so nothing earlier is taken as gone
            skip.append(Rejection(display, block.span, f"'{_short(block.command_text)}' is cut off in a row: "
                                  "no full listing, so earlier rows it does not show are kept"))
        elif read and listing is not None:
            self._forget_not_listed(listing, block, shown, display)
        if read and command.namespace is None and not command.all_namespaces:
            # rows of a table without -n that the transcript knows in one namespace: that is
            # the session's namespace. Only objects of the kinds the command names: the pods a
            # `describe node` lists say their own namespaces, not the session's
            named = _named_kinds(command)
            stated = {o.namespace for s in shown if (o := self.result.objects[s]) is not None
                      and (not named or o.kind in named or _about_named(o, named))} - {""}
            if len(stated) == 1:
                self._sightings.context_namespace = next(iter(stated))
                self._sightings.context_why = ""
        if not read:
            self._record_input_rejection(Rejection(display, block.span, f"output of '{_short(block.command_text)}' "
                                                   "could not be read as a kubectl table or describe"))

    def _add_named_fragment(self, display: str, block: Block, command: Command, out: list[tuple[int, str]]) -> bool:
        """Only the conditions or taints of the one object the command names (a ticket's quote
        of its `-o yaml` conditions or taints, or of its describe's condition rows): the object
        with them."""
        from analyzer.ingest.text.fragments import fragment_of_named, fragment_part

        body = fragment_of_named(command, "\n".join(t for _, t in out))
        if body is None:
            return False
        first = next(no for no, t in out if t.strip())
        made = object_from_dict(body, Hints(), Provenance(display, FRAGMENT, None, first))
        if isinstance(made, KubeObject):
            made.notes.append(f"only its {fragment_part(body)} pasted under '{_short(block.command_text)}' "
                              f"({block.span}): kept with that, its other fields unknown")
        self._keep(made)
        return True

    def _add_foreign_output(self, display: str, block: Block, out: list[tuple[int, str]]) -> bool:
        """Output of a command that is not kubectl as typed (an alias: `kno`, `kgp`, `kpo`; a
        wrapper script) that opens with a kubectl table header or describe: read as what it is,
        though without the scope (namespace, full listing) a kubectl command line would give."""
        from analyzer.ingest.text.sniff import opens_with_kubectl_output
        body = "\n".join(t for _, t in out)
        if not opens_with_kubectl_output(body) or not self._add_text(display, transcripts.placed(out)):
            return False
        self.result.skipped.append(Rejection(display, block.span, f"'{_short(block.command_text)}' is no kubectl "
                                             "command line, but its output is a kubectl table or describe: read as one"))
        return True

    def _add_journal(self, display: str, block: Block, out: list[tuple[int, str]], what: str) -> bool:
        """A node's journal lines (`journalctl -u kubelet`, `systemctl status kubelet`) in a block
        read as nothing else, kept with their host and unit, its other lines named; False when it
        holds none."""
        return self._add_journal_lines(display, block.span, what, out)

    def _add_journal_lines(self, display: str, span: str, what: str, out: list[tuple[int, str]]) -> bool:
        """The journal lines among lines read as nothing else, kept; False when there are none."""
        read = journal.journal_lines(out, display)
        said = [t for _, t in out if t.strip()]
        if not read:
            return False
        self.result.node_journal.extend(read)
        hosts = sorted({j.host for j in read})
        units = sorted({j.unit for j in read})
        others = len(said) - len(read)
        self.result.skipped.append(Rejection(
            display, span, f"{what}: {len(read)} journal line(s) of {', '.join(hosts)} (units {', '.join(units)}) "
            "read as the node's journal, no objects" + (f"; {others} other line(s) in it are not journal lines"
                                                         if others else "")))
        return True

    def _add_journal_file(self, display: str, data: bytes, whole: bool, what: str = "") -> bool:
        """A file that is a node's journal (`journalctl -u kubelet > kubelet.log`, a collector's
        copy): its lines kept with their host and unit, the last _JOURNAL_TAIL of a long one.
        `whole`: a file no layout names a journal is one when most of its first lines are."""
        text = data.decode("utf-8", "replace")
        if whole:
            head = [(0, t) for t in text[:_JOURNAL_SNIFF].split("\n")[:-1] if t.strip()]
            if not head or 2 * len(journal.journal_lines(head, display)) < len(head):
                return False
        lines = text.split("\n")
        if lines and not lines[-1]:
            lines.pop()  # (the newline that ends the file ends its last line)
        first = max(0, len(lines) - _JOURNAL_TAIL)
        read = journal.journal_lines([(no, lines[no - 1]) for no in range(first + 1, len(lines) + 1)], display)
        if not read:
            return False
        self.result.node_journal.extend(read)
        self.result.files.append(FileReport(display, "node-journal"))
        hosts = sorted({j.host for j in read})
        units = sorted({j.unit for j in read})
        others = sum(1 for t in lines[first:] if t.strip()) - len(read)
        self.result.skipped.append(Rejection(
            display, "", f"{what or 'a node' + chr(39) + 's journal'}: {len(read)} journal line(s) of {', '.join(hosts[:5])}"
            + (f" and {len(hosts) - 5} other host(s)" if len(hosts) > 5 else "")
            + f" (units {', '.join(units[:8])}{', ...' if len(units) > 8 else ''}) read as the node's journal, no objects"
            + (f"; its first {first} line(s) not read (the journal's last {_JOURNAL_TAIL} kept)" if first else "")
            + (f"; {others} other line(s) are not journal lines" if others else "")))
        return True

    def _add_unnamed_component_logs(self) -> None:
        """A component's own log in a collector folder renamed from `<hostname>-<date>`: the node
        its collector's systeminfo/hostname names, the year its systeminfo/date says; where no
        file names the node, passed over as the layout says, saying so."""
        pending, self._unnamed_component_logs = self._unnamed_component_logs, []
        for entry, data, depth, hint in pending:
            host = self._systeminfo.get((hint.root, "hostname"), "")
            if _HOSTNAME.fullmatch(host):
                ran = self._systeminfo.get((hint.root, "date"), "")
                year, month = (int(ran[:4]), int(ran[5:7])) if _ISO_DATE.match(ran) else (0, 0)
                named = layouts.ComponentLogHint(host, hint.unit, year, month, hint.root)
                if self._add_component_log(entry.display, data, named):
                    continue
            else:
                self.result.skipped.append(Rejection(entry.display, "", f"the {hint.unit}'s own log, but neither its "
                                                     "folder's name nor a systeminfo/hostname beside it names its node: "
                                                     "not read as the node's journal"))
            self._add_file_content(entry, data, depth)

    def _add_component_log(self, display: str, data: bytes, hint: layouts.ComponentLogHint) -> bool:
        """A component's own log file (RKE2's agent-logs/kubelet.log, gzipped once rotated): its
        klog lines kept as its unit's journal on the node, the last _JOURNAL_TAIL of a long one;
        False when it holds none (it is then passed over as the layout says)."""
        if is_archive(data):
            try:
                data = gunzipped(data, display, MAX_ROTATED_LOG_BYTES)
            except InputError as exc:
                self.reject_input(display, exc.reason)
                return True
        lines = data.decode("utf-8", "replace").split("\n")
        if lines and not lines[-1]:
            lines.pop()  # (the newline that ends the file ends its last line)
        first = max(0, len(lines) - _JOURNAL_TAIL)
        read = journal.klog_file_lines([(no, lines[no - 1]) for no in range(first + 1, len(lines) + 1)], display,
                                       hint.host, hint.unit, hint.year, hint.month)
        if not read:
            return False
        self.result.node_journal.extend(read)
        self.result.files.append(FileReport(display, "node-journal"))
        others = sum(1 for t in lines[first:] if t.strip()) - len(read)
        self.result.skipped.append(Rejection(
            display, "", f"the {hint.unit}'s own log (klog lines, no journal): {len(read)} line(s) read as the "
            f"{hint.unit} journal of node {hint.host}, no objects"
            + (f"; its first {first} line(s) not read (the log's last {_JOURNAL_TAIL} kept)" if first else "")
            + (f"; {others} other line(s) are not klog lines" if others else "")))
        return True

    def _add_text_block(self, display: str, block: Block, out: list[tuple[int, str]]) -> None:
        """Lines no visible command produced: sniffed as a file would be, else skipped."""
        body = "\n".join(t for _, t in out)
        kind = transcripts.structured(body)
        if kind == "json" and transcripts.json_log_lines(body):
            what = "code block" if block.fenced else "prose"
            self.result.skipped.append(Rejection(display, block.span, f"{what}: JSON log lines (level, message), "
                                                 "no Kubernetes object"))
            return
        if kind is not None:
            self._add_structured_block(display, block, out, kind)
            return
        if self._add_text(display, transcripts.placed(out)):
            return
        if jsondocs.has_log_blocks(body.encode("utf-8")):
            self._add_structured_block(display, block, out, "json")
            return
        what = "code block" if block.fenced else "prose"
        if self._add_journal(display, block, out, what):
            return
        section = _describe_fragment(out)
        if _only_describe_event_rows(out):
            # kubectl output, but of no object: nothing says whose events they are (karpenter-
            # provider-aws#644: a pod's FailedScheduling row quoted alone)
            self.result.skipped.append(Rejection(display, block.span, f"{what}: a describe's Events row(s) "
                                                 "without the object they are about (no Name, no command "
                                                 "naming it): nothing to read them as"))
            return
        from analyzer.ingest.text.fragments import (
            condition_rows_said,
            only_condition_rows,
            pods_said,
        )

        lines = [t for _, t in out]
        if section is None and only_condition_rows(lines):
            section = "Conditions"  # its rows quoted without their heading (gesiscss/orc#21)
        if section is not None:
            # kubectl output, but no object: nothing names what it describes (k8s#68286); what
            # its condition rows say is named, not lost with it (karpenter-provider-aws#7029)
            said = condition_rows_said(lines) if section == "Conditions" else []
            if section == "Non-terminated Pods" and (pods := pods_said(lines)):
                said = [pods]
            self.result.skipped.append(Rejection(display, block.span, f"{what}: part of a `kubectl describe` (its "
                                                 f"'{section}' section) without the Name of what it describes: "
                                                 "nothing to read it as"
                                                 + (f"; it says {', '.join(said)}" if said else "")))
            return
        self.result.skipped.append(Rejection(display, block.span, f"{what}, not kubectl output"))

    def _add_structured_block(self, display: str, block: Block, out: list[tuple[int, str]], kind: str,
                              hint: layouts.PathHint | None = None) -> None:
        text = transcripts.placed(out)
        data = text.encode("utf-8")
        read_before = self.result.objects_read
        rejected_before, skipped_before = len(self.result.object_rejections), len(self.result.skipped)
        if kind == "json" or jsondocs.looks_like_json(data):
            self._add_json(display, jsondocs.read_json_file(data, display), hint)
            # (counted only when something was rejected: on a big clean paste it costs seconds)
            still_open = _open_brackets(text) if len(self.result.object_rejections) > rejected_before else 0
            if still_open > 0:
                self._say_cut_off(rejected_before, still_open)
        else:
            self._add_yaml(display, _dedented_yaml(text), hint)
        self._say_paste_ends(rejected_before, skipped_before)
        if self.result.objects_read == read_before and datasniff.data_shape(data) == datasniff.OBJECTS:
            self.reject_object(Rejection(display, block.span, "output cut off or damaged: no object could be read"))
            self.result.objects_read += 1

    def _say_cut_off(self, since: int, still_open: int) -> None:
        """A paste that ends with brackets still open was cut off: its rejections say so (an item
        the reader found the paste ends inside says so itself)."""
        res = self.result
        for i in range(since, len(res.object_rejections)):
            old = res.object_rejections[i]
            if _FILE_ENDS in old.reason:
                continue
            new = Rejection(old.source, old.location, f"cut off: the paste ends with {still_open} "
                            f"bracket(s) still open ({old.reason})")
            res.object_rejections[i] = new
            res.rejections[res.rejections.index(old)] = new

    def _say_paste_ends(self, rejected_since: int, skipped_since: int) -> None:
        """What the readers say of a List the text ends in ('the file ends inside this item')
        is, of a block of a transcript, where the paste ends: the file may go on after it."""
        res = self.result
        for i in range(rejected_since, len(res.object_rejections)):
            old = res.object_rejections[i]
            if _FILE_ENDS in old.reason:
                new = Rejection(old.source, old.location, old.reason.replace(_FILE_ENDS, _PASTE_ENDS))
                res.object_rejections[i] = new
                res.rejections[res.rejections.index(old)] = new
        for i in range(skipped_since, len(res.skipped)):
            old = res.skipped[i]
            if _FILE_ENDS in old.reason:
                res.skipped[i] = Rejection(old.source, old.location, old.reason.replace(_FILE_ENDS, _PASTE_ENDS))

    def _add_names(self, display: str, command: Command, out: list[tuple[int, str]]) -> bool:
        """`kubectl get -o name`: one object per `kind/name` line, known by name only."""
        from analyzer.ingest.text import catalog as text_catalog

        kinds = text_catalog.catalog()
        made = 0
        for no, line in out:
            resource, _, name = line.strip().partition("/")
            info = kinds.for_resource(resource) if name else None
            if info is None:
                continue
            body = {"apiVersion": info.api_version, "kind": info.kind, "metadata": {"name": name}}
            if command.namespace and info.namespaced:
                body["metadata"]["namespace"] = command.namespace
            made += self._keep(object_from_dict(body, Hints(), Provenance(display, "text table", None, no)))
        return made > 0

    # -- formats ----------------------------------------------------------------------------

    def _add_json(self, display: str, parsed: jsondocs.JsonFile, hint: layouts.PathHint | None) -> None:
        many = len(parsed.documents) + len(parsed.broken) > 1 or parsed.logs
        fmt = hint.format if hint else ("cluster-info-dump" if many and parsed.logs else "kubectl-json")
        report = FileReport(display, fmt)
        self.result.files.append(report)
        for s in parsed.skipped:
            self.result.skipped.append(Rejection(display, f"line {s.line}", s.reason))
        for log in parsed.logs:
            self._add_log(log)
            report.logs += 1
        for doc in parsed.documents:
            report.objects += self._add_json_document(display, fmt, doc, hint)
        for index, line, raw, error in parsed.broken:
            self._add_salvaged_items(display, fmt, hint, report, index, line, raw, error)

    def _add_salvaged_items(self, display: str, fmt: str, hint: layouts.PathHint | None, report: FileReport,
                            index: int, line: int, raw: memoryview, error: str) -> None:
        """A JSON document that did not decode: the List items in it that do are kept, each with
        its line and place in the List; each that does not is rejected with its own line and why
        (the one the file ends in: cut off), so a List cut short loses only its last item."""
        items, broken, in_items = jsondocs.salvage_items(raw, line)
        offsets = Counter([found.line_offset for found in items] + [bad.line_offset for bad in broken])
        shared = _SalvagedLines({found.index: line + found.line_offset for found in items})
        for offset, item, list_kind, place in items:
            # an item alone on its line is named by it; items of a List on one line (kubectl get
            # --raw, jq -c) share it, and are named by their place, as a whole List's are
            prov = (Provenance(display, fmt, index, line + offset, place) if offsets[offset] == 1
                    else Provenance(display, fmt, index, None, place, shared))
            item_kind = list_item_kind(list_kind)
            obj = object_from_json(item, _hints(item_kind, hint), prov)
            if item_kind and isinstance(obj, KubeObject) and not (hint and hint.kind) \
                    and peek_item(memoryview(item))[0] is None:
                obj.notes.append(f"kind not stated: {item_kind} taken from the {list_kind} named "
                                 "before it in the damaged document")
            report.objects += self._keep(obj)
        cut_off = jsondocs.TRUNCATED in error
        if not items and not broken and not (in_items and cut_off):
            self.result.objects_read += 1
            self.reject_object(Rejection(display, f"line {line}", f"broken JSON document: {error}"))
            return
        starts = sorted([found.line_offset for found in items] + [bad.line_offset for bad in broken])
        for bad in broken:
            self.result.objects_read += 1
            # (counted from 1 here, as a reader counts them: item 5, the 4 before it)
            before = f"; the {bad.index} before it read" if bad.why == jsondocs.CUT_OFF and bad.index else ""
            # the decoder's error on the document is about its first damage; it says more (a console's wrap)
            first_damage = bad is broken[0] and bad.why != jsondocs.CUT_OFF
            why = error if first_damage and _error_line_within(error, line, bad.line_offset, starts) else bad.why
            self.reject_object(Rejection(display, f"line {line + bad.line_offset}", f"broken JSON document: item "
                                         f"{bad.index + 1} of the {bad.list_kind or 'List'}, {why}{before}"))
        if cut_off and not any(bad.why == jsondocs.CUT_OFF for bad in broken):
            # cut between two items: nothing half-read to reject, but the List's end is missing
            list_kind = jsondocs.list_kind_named(raw) or "List"
            where = f"after its item {len(items) + len(broken)}" if items or broken else "before its first item"
            self.result.skipped.append(Rejection(display, f"line {line}", f"the {list_kind} is cut off {where}: "
                                                 "the file ends before the List does"))

    def _add_json_document(self, display: str, fmt: str, doc: jsondocs.JsonDocument, hint: layouts.PathHint | None) -> int:
        env = doc.envelope
        items = env.list_items()
        if items is None and not env.kind and self._add_foreign_document(display, doc):
            return 0
        if items is None:
            prov = Provenance(display, fmt, doc.index, doc.line)
            return self._keep(object_from_json(doc.raw, _hints(None, hint), prov))
        h = self._list_hints(env.kind, env.apiVersion, env.list_self_link(), hint)
        if list_item_kind(env.kind) and isinstance(env.items, list) and h.api_version:
            h = Hints(h.kind, h.api_version, h.namespace, h.name, typed=True, cluster_scoped=h.cluster_scoped)
        kept = 0
        if doc.raw_line is None:
            provenances = _item_provenances(display, fmt, doc.index, None, len(items))
        else:
            mapped = self._mapped
            lines = jsondocs.ItemLines(doc.raw, env, doc.raw_line, mapped.release if mapped is not None else None)
            provenances = [Provenance(display, fmt, doc.index, None, i, lines) for i in range(len(items))]
        views = env.item_views() if isinstance(env, jsondocs.UnionEnvelope) else None
        if views is not None:
            return self._add_item_views(doc, views, h, provenances)
        parts = env.item_parts() if isinstance(env, jsondocs.PartsEnvelope) else None
        if parts is not None:
            return self._add_item_parts(doc, parts, h, provenances)
        mapped = self._mapped  # (set only while the one document of a mapped file is read)
        # Items lie in order in the file, so the bytes before item i are at least the sum of
        # the sizes of the items before it: their pages can go once those items are decoded.
        decoded = released = 0
        for i, raw in enumerate(items):
            kept += self._keep(object_from_json(raw, h, provenances[i]), item_index=i)
            if mapped is not None:
                decoded += len(raw)
                if decoded - released >= _RELEASE_STEP:
                    mapped.release(decoded)
                    released = decoded
        return kept

    def _add_foreign_document(self, display: str, doc: jsondocs.JsonDocument) -> bool:
        """A cloud CLI's or kubectl's own document (`az aks show`, `kubectl version -o json`):
        skipped as what it is, with the version it states; False if it is not one."""
        try:
            body = msgspec.json.decode(bytes(doc.raw))
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            return False
        found = shapes.foreign_document(body)
        if found is None:
            return False
        what, version = found
        said = f", Kubernetes {version}" if version else ""
        self.result.skipped.append(Rejection(display, f"document {doc.index}, line {doc.line}",
                                             f"{what}{said}: not Kubernetes objects"))
        server = body.get("serverVersion") if isinstance(body, dict) else None
        if isinstance(server, dict) and isinstance(server.get("gitVersion"), str) and not self.result.server_version:
            self.result.server_version = server["gitVersion"]
        return True

    def _add_item_views(self, doc: jsondocs.JsonDocument, items: list, h: Hints, provenances: list[Provenance]) -> int:
        """A List whose items were decoded into their views' fields in its one scan."""
        env = doc.envelope
        raws = jsondocs.ListItems(doc.raw, env.chunks if isinstance(env, jsondocs.ChunkedEnvelope) else None)
        union = jsondocs.ITEM_UNION
        kept = 0
        for i, item in enumerate(items):
            prov = provenances[i]
            lazy = LazyRaw(raws, i)
            # (items of a chunk that held a kind without a variant come as parts)
            obj = (object_from_parts(item, h, prov, lazy) if type(item) is ItemParts
                   else object_from_item(union, item, h, prov, lazy))
            if obj is None:
                obj = object_from_json(lazy.resolve(), h, prov)
            kept += self._keep(obj, item_index=i)
        # The scan read every page of a mapped file; the views need none of them.
        if self._mapped is not None:
            self._mapped.release()
        return kept

    def _add_item_parts(self, doc: jsondocs.JsonDocument, parts: list, h: Hints, provenances: list[Provenance]) -> int:
        """A List read in one scan (see jsondocs): views from the items' parts."""
        mapped = self._mapped
        raws = jsondocs.ListItems(doc.raw)
        kept = released = 0
        for i, item in enumerate(parts):
            prov = provenances[i]
            lazy = LazyRaw(raws, i)
            obj = object_from_parts(item, h, prov, lazy)
            if obj is None:
                obj = object_from_json(lazy.resolve(), h, prov)
            kept += self._keep(obj, item_index=i)
            if mapped is not None and not i % _LOCATE_EVERY:
                # The scan touched every page; the pages before the item being read can go as
                # it goes (all at once first would cost more: the parts still to decode would
                # be read back in).
                part = located_part(item)
                at = mapped.offset_of(part) if part is not None else None
                if at is not None and at - released >= _RELEASE_STEP:
                    mapped.release(at)
                    released = at
        if mapped is not None:
            mapped.release()
        return kept

    def _list_hints(self, list_kind: Any, api_version: Any, self_link: Any, hint: layouts.PathHint | None) -> Hints:
        """What a List says about its items: their kind from the List's kind, path or selfLink."""
        item_kind = list_item_kind(list_kind if isinstance(list_kind, str) else None)
        link = layouts.parse_self_link(self_link) if isinstance(self_link, str) else None
        namespace = hint.namespace if hint else None
        if not item_kind and hint and hint.kind:
            item_kind, api_version = hint.kind, None
        elif not item_kind and link is not None:
            item_kind, api_version = link.kind, link.api_version
            namespace = namespace or link.namespace
        if item_kind:
            self.result.collected_kinds.add(item_kind)
        return Hints(kind=item_kind, api_version=api_version if item_kind and isinstance(api_version, str) else None,
                     namespace=namespace, cluster_scoped=bool(hint and hint.cluster_scoped))

    def _add_yaml(self, display: str, text: str, hint: layouts.PathHint | None) -> None:
        # List items that yaml-rs read come as compact JSON and are read as JSON items are.
        self._add_yaml_file(display, yamldocs.read_yaml_file(text, compact_items=True), hint)

    def _add_yaml_file(self, display: str, parsed: yamldocs.YamlFile, hint: layouts.PathHint | None) -> None:
        fmt = hint.format if hint else "kubectl-yaml"
        report = FileReport(display, fmt)
        self.result.files.append(report)
        for s in parsed.skipped:
            self.result.skipped.append(Rejection(display, f"line {s.line}", s.reason))
        for index, line, error in parsed.broken:
            self.result.objects_read += 1
            self.reject_object(Rejection(display, f"document {index}, line {line}", error))
        for doc in parsed.documents:
            if isinstance(doc.value, list):
                # A top-level sequence (`- apiVersion: ...`, as some bundles write) is a list of objects.
                lines = doc.item_lines if doc.item_lines and len(doc.item_lines) == len(doc.value) else None
                for i, value in enumerate(doc.value):
                    report.objects += self._add_value(display, fmt, doc.index, lines[i] if lines else doc.line,
                                                      value, hint, doc.json_types)
            else:
                report.objects += self._add_value(display, fmt, doc.index, doc.line, doc.value, hint,
                                                  doc.json_types, doc.item_lines)

    def _add_value(self, display: str, fmt: str, index: int, line: int, value: Any, hint: layouts.PathHint | None,
                   json_types: bool = False, item_lines: list[int] | None = None) -> int:
        items = _yaml_list_items(value)
        if items is not None:
            meta = value.get("metadata")
            link = value.get("selfLink") or (meta.get("selfLink") if isinstance(meta, dict) else None)
            h = self._list_hints(value.get("kind"), value.get("apiVersion"), link, hint)
            provenances = _item_provenances(display, fmt, index, item_lines, len(items))
            kept = 0
            for i, item in enumerate(items):
                if isinstance(item, JsonItem):
                    made = object_from_json(item, h, provenances[i])
                else:
                    made = _json_typed(object_from_dict(item, h, provenances[i]), json_types)
                kept += self._keep(made, item_index=i)
            return kept
        prov = Provenance(display, fmt, index, line)
        return self._keep(_json_typed(object_from_dict(value, _hints(None, hint), prov), json_types))

    def _add_text(self, display: str, text: str) -> bool:
        try:
            from analyzer.ingest.text import looks_like_kubectl_text, parse_kubectl_text
        except ImportError:  # pragma: no cover - the text stage is part of the package
            return False
        if not looks_like_kubectl_text(text):
            return False
        parsed = parse_kubectl_text(text, display)
        report = FileReport(display, "kubectl-text")
        self.result.files.append(report)
        stated = _stated_namespaces(parsed.objects) if self._sightings is None else {}
        listed_in: set[str] = set()  # the namespaces rows of a `get` without -n were found in
        for obj in parsed.objects:
            prov = Provenance(display, obj.origin, None, obj.line)
            stated_by = self._namespace_from_transcript(obj.body) if self._sightings is not None \
                else _namespace_from_paste(obj, stated)
            if stated_by is not None and self._sightings is None and obj.facts.get("listed_without_namespace"):
                listed_in.add(stated_by[0])
            made = object_from_dict(obj.body, Hints(), prov)
            if stated_by is not None and isinstance(made, KubeObject) and made.namespace == stated_by[0]:
                made.notes.append(stated_by[1])
            if obj.notes and isinstance(made, KubeObject):
                made.notes.extend(obj.notes)
            report.objects += self._keep(made)
        if self._transcript is None:
            self._report_namespace_given(display, text)
            self._platform_listings_in_kube_system(display)
            # a `get` without -n lists the context's one namespace: where the paste shows some
            # of its rows, the others are there too (as a transcript's session namespace)
            self._assume_default_namespace(display, next(iter(listed_in)) if len(listed_in) == 1 else None,
                                           "the namespace this paste shows other rows of its listing in")
        for rej in parsed.rejections:
            if isinstance(rej, Truncated):
                # a describe the paste ends inside: its object is kept, as far as the paste goes
                self.result.truncated.append(rej)
                continue
            # A fragment of text the parser could not read: not countable as objects.
            self._record_input_rejection(rej)
        self._note_client_and_version(text, commands=self._transcript is None)
        all_lines = text.split("\n") if parsed.unread else []
        for first, last in parsed.unread:
            span = f"line {first}" if first == last else f"lines {first}-{last}"
            if self._add_journal_lines(display, span, "neither a kubectl table nor a describe",
                                       [(no, all_lines[no - 1]) for no in range(first, min(last, len(all_lines)) + 1)]):
                continue
            self.result.skipped.append(Rejection(display, span, "neither a kubectl table nor a describe "
                                                 "(prose, or a fragment of an output): not read"))
        for line, said in parsed.errors:
            self.result.skipped.append(Rejection(display, f"line {line}", f"kubectl's error, no objects: {said[:200]}"))
        for line in parsed.elided:
            self.result.skipped.append(Rejection(display, f"line {line}", "the writer's mark that lines of the output "
                                                 "were left out of the paste here: nothing to read"))
        for table in parsed.tables:
            self._keep_table(display, table)
        return True

    def _keep_table(self, display: str, table: Any) -> None:
        """A pasted table read as no objects, kept as rows and said so; a listing of a kind kept
        as a table only (`kubectl get netpol -A`) shows that kind was collected."""
        self.result.generic_tables.append(table)
        if table.kind is not None:
            self.result.hinted_files.setdefault(table.kind, []).append(f"{display}:{table.line}")
            rows = f"{len(table.rows)} row{'s' if len(table.rows) != 1 else ''}"
            said = (f"'{_short(table.command)}' lists {table.kind} by name ({rows}): kept as a table, not as "
                    "objects (a listing does not show what they hold); the kind counts as collected")
        else:
            what = f"'{_short(table.command)}'" if table.command else ", ".join(table.header[:7])
            said = f"a table of a kind with no objects ({what}): its {len(table.rows)} row(s) kept as a generic table"
        self.result.skipped.append(Rejection(display, f"line {table.line}", said))

    def _note_client_and_version(self, text: str, *, commands: bool = True) -> None:
        """What pasted text tells besides its tables and describes: the client its command line
        ran through (`oc get pods`, no prompt before it) and a version the client printed
        (`kubectl version`, OpenShift 3's `oc version`) - openshift/origin#20233's paste - else
        the one kubeadm's upgrade plan or apply stated. (A
        transcript's commands are counted where they are split off: `commands` False.)"""
        from analyzer.ingest.text.transcript import command_of_line

        seen: set[int] = set()
        for m in (m for pattern in _CLIENT_WORDS for m in pattern.finditer(text)) if commands else ():
            if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-"):
                continue  # inside a word (`proc get`, `docker-oc ...`)
            start = text.rfind("\n", 0, m.start()) + 1
            if start in seen or m.start() - start > 200:  # a prompt is shorter
                continue
            seen.add(start)
            end = text.find("\n", m.start())
            found = command_of_line(text[start:end if end >= 0 else len(text)])
            if found is not None and found[0] == "kubectl" and (tool := transcripts.cli_tool(found[1])):
                self.result.cli_tools[tool] = self.result.cli_tools.get(tool, 0) + 1
        oc_client, oc_server = transcripts.oc3_version(text)
        if oc_client:
            self.result.cli_tools["oc"] = self.result.cli_tools.get("oc", 0) + 1
        if self.result.server_version:
            return
        version = (transcripts.server_version(text) if "erver Version" in text or "erverVersion" in text
                   else None) or oc_server or transcripts.kubeadm_cluster_version(text)
        if version:
            self.result.server_version = version

    def _namespace_from_transcript(self, body: dict[str, Any]) -> tuple[str, str] | None:
        """A table row (or a describe) without a namespace takes the one namespace this
        transcript shows its kind and name in, else the one of the objects it shows it owning,
        else the session's namespace other tables without -n showed; returns the namespace and
        the note saying so."""
        meta = body.get("metadata")
        kind = body.get("kind")
        if not isinstance(meta, dict) or meta.get("namespace") or not isinstance(meta.get("name"), str) \
                or not isinstance(kind, str):
            return None
        namespace = self._sightings.known_namespace(kind, meta["name"])
        if namespace is not None:
            why = f"the one namespace this transcript shows {kind} {meta['name']} in"
        elif (namespace := self._sightings.owner_namespace(kind, meta["name"])) is not None:
            # a DaemonSet's describe prints no Namespace line; its pods' describes do
            why = f"the one namespace of the objects this transcript shows {kind} {meta['name']} controlling"
        elif (namespace := self._sightings.context_namespace) is not None:
            why = self._sightings.context_why \
                or "the session's namespace, where its earlier tables without -n showed known objects"
        else:
            return None
        meta["namespace"] = namespace
        if kind == "Event":
            body.update(placed_in(body, namespace))
        return namespace, f"namespace not stated by its table: {namespace}, {why}"

    def _assume_default_namespace(self, display: str, session: str | None = None,
                                  session_why: str = "the session's namespace, where its commands without -n "
                                                     "showed other objects") -> None:
        """Objects of a namespaced kind that a `kubectl get` shown without -n listed, where nothing
        in the paste states their namespace (no describe of them): in the
        session's namespace where its commands without -n showed one (a describe without -n
        printing `Namespace: shop`), else in kube-system where they include the platform's own
        pods that always run there (coredns, kube-proxy: platform_pods.yaml), else in `default`,
        the namespace kubectl lists when given none; a note says which (a context set to another
        namespace would have listed that one)."""
        from analyzer.ingest.text.catalog import catalog as text_catalog

        kinds = text_catalog()
        res = self.result
        unstated = [(slot, obj) for slot, obj in enumerate(res.objects)
                    if obj is not None and not obj.namespace and obj.provenance.source == display
                    and obj.kind not in CLUSTER_SCOPED_KINDS and kinds.for_resource(obj.kind) is not None
                    and isinstance(obj.raw, dict) and isinstance(obj.raw.get("metadata"), dict)
                    and (obj.raw.get(TEXT_FACTS_KEY) or {}).get("listed_without_namespace")]
        # (rows without the command that listed them may be of any namespace: not among them)
        platform = None if session else _platform_pod_listed(obj for _, obj in unstated)
        if session:
            namespace = session
            why = session_why
        elif platform is not None and platform[1] == "kube_system":
            # a context set to kube-system: the platform's own pods (coredns, kube-proxy) run
            # there on every distribution, and one listing shows one namespace
            namespace = "kube-system"
            why = (f"where the platform's own {platform[0]} it lists runs (a `kubectl get` without -n "
                   "lists one namespace, the context's)")
        elif platform is not None:
            return  # etcd, calico-node, flannel: kube-system or a namespace of their own; not default
        else:
            namespace = _ASSUMED_NAMESPACE
            why = "the namespace kubectl lists when neither -n nor the context names one"
        note = f"namespace not stated: {namespace} assumed, {why} (nothing in the paste states its namespace)"
        moved: set[tuple[str, str]] = set()
        for slot, obj in unstated:
            if self._moved(slot, obj, placed_in(obj.raw, namespace), note):
                moved.add((obj.kind, obj.name))
        self._events_follow(display, moved, namespace, note)

    def _report_namespace_given(self, display: str, text: str) -> None:
        """A script's report that states one namespace in its header (a ka0s deployment report:
        `Namespace: cloudbeaver` under `Deployment Report: ...`) before the listings it ran there
        without -n: its rows (pods, services, ingresses) and describes that state none are
        there, said in a note; their describes' events go with them."""
        namespace = _report_namespace(text)
        if namespace is None:
            return
        from analyzer.ingest.text.catalog import catalog as text_catalog

        kinds = text_catalog()
        note = (f"namespace not stated by its table: {namespace}, the namespace the report's header "
                f"states (Namespace: {namespace})")
        moved: set[tuple[str, str]] = set()
        for slot, obj in enumerate(self.result.objects):
            if obj is None or obj.namespace or obj.provenance.source != display or obj.kind == "Event" \
                    or obj.kind in CLUSTER_SCOPED_KINDS or kinds.for_resource(obj.kind) is None \
                    or not isinstance(obj.raw, dict) or not isinstance(obj.raw.get("metadata"), dict):
                continue
            if self._moved(slot, obj, placed_in(obj.raw, namespace), note):
                moved.add((obj.kind, obj.name))
        self._events_follow(display, moved, namespace, note)

    def _platform_listings_in_kube_system(self, display: str) -> None:
        """Rows of a pod table pasted without its command and without a NAMESPACE column (one
        listing of one namespace) that include the platform's own pods always run in kube-system
        (coredns, kube-proxy: platform_pods.yaml): that listing is kube-system's, said in a note
        (Azure/AKS#3642's coredns Pending rows, named bare before: not seen as AKS's own DNS)."""
        listings: dict[int, list[tuple[int, KubeObject]]] = {}
        for slot, obj in enumerate(self.result.objects):
            if obj is None or obj.namespace or obj.provenance.source != display or obj.kind in CLUSTER_SCOPED_KINDS \
                    or not isinstance(obj.raw, dict) or not isinstance(obj.raw.get("metadata"), dict):
                continue
            line = (obj.raw.get(TEXT_FACTS_KEY) or {}).get("bare_listing")
            if isinstance(line, int):
                listings.setdefault(line, []).append((slot, obj))
        for rows in listings.values():
            platform = _platform_pod_listed(obj for _, obj in rows)
            if platform is None or platform[1] != "kube_system":
                continue
            note = (f"namespace not stated: kube-system assumed, where the platform's own {platform[0]} "
                    "its table lists runs (a table without a NAMESPACE column lists one namespace)")
            moved = {(obj.kind, obj.name) for slot, obj in rows
                     if self._moved(slot, obj, placed_in(obj.raw, "kube-system"), note)}
            self._events_follow(display, moved, "kube-system", note)

    def _events_follow(self, display: str, moved: set[tuple[str, str]], namespace: str, note: str) -> None:
        """The events of a describe of objects just put in a namespace (its Events section alone,
        no Namespace line) go with them."""
        if not moved:
            return
        res = self.result
        for slot, obj in enumerate(res.objects):
            if obj is None or obj.kind != "Event" or obj.namespace or obj.provenance.source != display \
                    or not isinstance(obj.raw, dict):
                continue
            involved = obj.raw.get("involvedObject")
            if not isinstance(involved, dict) or involved.get("namespace") \
                    or (involved.get("kind"), involved.get("name")) not in moved:
                continue
            self._moved(slot, obj, {**obj.raw, "metadata": {**(obj.raw.get("metadata") or {}), "namespace": namespace},
                                    "involvedObject": {**involved, "namespace": namespace}}, note)

    def _moved(self, slot: int, obj: KubeObject, body: dict[str, Any], note: str) -> bool:
        """Put obj, read again from body (its namespace now given), in its slot; False when an
        object of that key is already kept (left apart) or the body makes no object."""
        made = _remade(obj, body, note)
        if made is obj or made.key in self._by_key:
            return False
        made.notes = [n for n in made.notes if n != "namespace not stated by the dump"]
        made.duplicates = obj.duplicates
        self.result.objects[slot] = made
        if self._by_key.get(obj.key) == slot:
            del self._by_key[obj.key]
        self._by_key[made.key] = slot
        return True

    def _add_log_file(self, display: str, data: bytes, hint: layouts.LogHint) -> None:
        if _LINK_STUB.match(data):
            # troubleshoot's all-logs/ entries are links to cluster-resources/pods/logs/; an
            # archive copied without links leaves the link's target path as the file's text.
            self.result.files.append(FileReport(display, "ignored"))
            self.result.skipped.append(Rejection(display, "", f"link to {data.strip().decode('utf-8', 'replace')}; the log is read there"))
            return
        try:
            text = decode_text(data, display)
        except InputError as exc:
            self.reject_input(display, exc.reason)
            return
        report = FileReport(display, f"{hint.format} logs", logs=0)
        self.result.files.append(report)
        if hint.container is None:
            # cluster-info --output-directory logs.txt: START/END blocks per container
            parsed = jsondocs.read_json_file(text.encode(), display)
            for log in parsed.logs:
                self._add_log(log)
                report.logs += 1
            if not parsed.logs:
                self._add_log(LogRecord(hint.namespace or "", hint.pod, "", text, display, False))
                report.logs += 1
            return
        stamped = runtimelog.read_timestamped(text) if hint.timestamps else None
        if stamped is not None:  # (the text as kubectl logs prints it, the times beside it)
            self._add_log(LogRecord(hint.namespace or "", hint.pod, hint.container, stamped.text, display,
                                    hint.previous, stamps=stamped.stamps))
        else:
            self._add_log(LogRecord(hint.namespace or "", hint.pod, hint.container, text, display, hint.previous))
        report.logs += 1

    def _add_pod_named_logs(self) -> None:
        """troubleshoot's `logs` collectors write <collector name>/<pod>/<container>.log, the
        folder named as the bundle's author chose: such a file is that container's log when the
        dump holds one pod of that name (its namespace is the pod's); else it is named, skipped.
        Before troubleshoot 0.49.1 a pod of one container had its log written as
        <collector name>/<pod>.log, or <pod>.log at the bundle's root for a collector given no
        name (replicatedhq/troubleshoot#744; later bundles keep that name for a link): the file
        named after a pod the dump holds once, of one container, is that container's log."""
        pending, self._pod_named_logs = self._pod_named_logs, []
        if not pending:
            return
        pods: dict[str, list[KubeObject]] = {}
        for obj in self.result.objects:
            if obj is not None and obj.kind == "Pod":
                pods.setdefault(obj.name, []).append(obj)
        for display, path, data in pending:
            owner = _pod_log_owner(path, data, pods)
            if isinstance(owner, str):
                self.result.files.append(FileReport(display, "ignored"))
                self.result.skipped.append(Rejection(display, "", owner))
                continue
            namespace, pod, container, previous = owner
            self._add_log_file(display, data, layouts.LogHint("support-bundle", namespace, pod, container, previous))

    def _add_kubectl_message(self, entry: Entry, display: str, data: bytes) -> bool:
        """A file that holds only what kubectl printed instead of objects (a collector saved each
        command's output to a file): `No resources found` (an empty listing: the kind is
        collected, none exists, when the file's name says which), kubectl's error, or
        `kubectl version`. Accounted for with what it says; False when the file is none of these."""
        text = data.decode("utf-8", "replace")
        lines = [t.strip() for t in text.splitlines() if t.strip()]
        if not lines or len(lines) > 5:
            return False
        said = lines[0]
        kind = layouts.command_output_kind(entry.path) if entry.path else None
        if said.startswith("No resources found"):
            if kind is not None:
                self.result.collected_kinds.add(kind)
            what = f"no {kind} in the cluster" if kind else "an empty listing"
            reason = f"kubectl printed '{_short(said)}': {what}"
        elif said.startswith(_KUBECTL_ERROR):
            # the API server's answer it quotes (an aggregated API down: `error: unable to
            # retrieve the complete list of server APIs: ...`) is read all the same
            self._add_refusals(text, display)
            reason = f"kubectl's error, no objects: {_short(said, 200)}"
        elif said.startswith(("Client Version:", "Server Version:")):
            self._note_client_and_version(text, commands=False)
            reason = "`kubectl version` output (the server version is read from it), no objects"
        else:
            return False
        self.result.files.append(FileReport(display, "ignored"))
        self.result.skipped.append(Rejection(display, "", reason))
        return True

    def _forget_static_manifests(self) -> None:
        """A node's static pod manifests (kubeadm's /etc/kubernetes/manifests, RKE2's
        pod-manifests/ as rancher2_logs_collector copies them) are Pods never created: no
        creation time, no status. When the dump holds the mirror pod the kubelet made of one
        (`<name>-<node>` in the same namespace), that pod is the object; the manifest is
        accounted for as its file, not kept as a second pod that never runs."""
        pods = [(slot, o) for slot, o in enumerate(self.result.objects)
                if o is not None and o.kind == "Pod" and o.api_version == "v1"]  # (a custom "Pod" is not one)
        manifests = [(slot, o) for slot, o in pods if _never_created(o)]
        if not manifests:
            return
        names = {(o.namespace, o.name): slot for slot, o in pods}
        nodes = {o.name for o in self.result.objects if o is not None and o.kind == "Node"}
        nodes |= {getattr(getattr(o.view, "spec", None), "nodeName", None) or "" for _, o in pods} - {""}
        for slot, manifest in manifests:
            mirror = next((f"{manifest.name}-{node}" for node in sorted(nodes)
                           if (manifest.namespace, f"{manifest.name}-{node}") in names), None)
            if mirror is not None:
                self._spec_from_manifest(names[(manifest.namespace, mirror)], manifest)
                self._forget(slot, f"a static pod manifest (never created: no creation time, no status); "
                                   f"the kubelet runs it as mirror pod {manifest.namespace}/{mirror}, which the dump holds")
        self._compact()

    def _spec_from_manifest(self, slot: int, manifest: KubeObject) -> None:
        """A mirror pod the dump shows only as a table row (no containers: `kubectl get pods`)
        takes its spec, and its labels where the row has none, from the static pod manifest the
        kubelet made it of, the row's own fields (its node) kept over them: its containers,
        images and host network are the manifest's (served, `kubectl logs` finds its container)."""
        mirror = self.result.objects[slot]
        body, spec = mirror.raw, manifest.raw.get("spec") if isinstance(manifest.raw, dict) else None
        if not isinstance(body, dict) or not isinstance(spec, dict) or not spec.get("containers"):
            return
        own = body.get("spec") if isinstance(body.get("spec"), dict) else {}
        if own.get("containers"):
            return  # the mirror pod as the API server has it: its own spec
        amended = {**body, "spec": _overlay(spec, own)}
        labels = (manifest.raw.get("metadata") or {}).get("labels")
        if isinstance(labels, dict) and labels and isinstance(body.get("metadata"), dict) \
                and not body["metadata"].get("labels"):
            amended["metadata"] = {**body["metadata"], "labels": labels}  # a mirror pod carries its manifest's
        made = _remade(mirror, amended, f"spec from the static pod manifest it mirrors ({manifest.provenance.source})")
        if made is not mirror:
            made.duplicates = mirror.duplicates
            self.result.objects[slot] = made
            self._whole_of.pop(slot, None)

    def _add_joined_logs(self) -> None:
        """rancher2_logs_collector's podlogs/<namespace>-<pod>[-previous]: the log of the one pod
        of the dump whose namespace and name, joined by a dash, make the file's name (kubectl's
        default container); a name no pod, or several, fit is skipped with the reason."""
        pending, self._joined_logs = self._joined_logs, []
        if not pending:
            return
        pods = {(o.namespace, o.name) for o in self.result.objects if o.kind == "Pod"}
        for display, hint, data in pending:
            said = _kubectl_error(data)
            if said is not None:
                # `kubectl logs --previous` of a container that never restarted writes its error
                # where the log would be: no log, and nothing wrong
                self.result.files.append(FileReport(display, "ignored"))
                self.result.skipped.append(Rejection(display, "", f"kubectl's error instead of a log: {_short(said, 200)}"))
                continue
            found = layouts.split_joined(hint.joined, hint.previous, pods)
            if found is None:
                self.result.files.append(FileReport(display, "ignored"))
                self.result.skipped.append(Rejection(display, "", (
                    f"a pod's log named <namespace>-<pod> ({hint.joined}), but no pod of the dump, "
                    "or more than one, has that namespace and name: not read")))
                continue
            namespace, pod, previous = found
            self._add_log_file(display, data, layouts.LogHint(hint.format, namespace, pod, "", previous))

    def _add_node_logs(self) -> None:
        """A node's kubelet log files: each read as the log of its container's run the dump
        shows, or of the run before it (previous); a file of another run, or of another pod of
        the same name, is named with the reason (nodelogs.resolve)."""
        pending, self._node_logs = self._node_logs, []
        if not pending:
            return
        if any(not f.hint.pod for f in pending):
            pending = self._named_by_uid(pending)
        named = {(f.hint.namespace, f.hint.pod) for f in pending}
        pods = {(o.namespace, o.name): nodelogs.pod_runs(o.body()) for o in self.result.objects
                if o is not None and o.kind == "Pod" and o.api_version == "v1" and (o.namespace, o.name) in named}
        current, earlier, skipped = nodelogs.split_rotated(self._gunzipped(pending))
        for verdict in skipped:
            self.result.files.append(FileReport(verdict.file.display, "ignored"))
            self.result.skipped.append(Rejection(verdict.file.display, "", verdict.why or ""))
        for verdict in nodelogs.resolve(current, pods):
            f = verdict.file
            # (a run's rotated files go with the file that stands for it, read or not)
            pieces = earlier.pop(nodelogs.run_key(f.hint), []) if f.hint.restart is not None else []
            if verdict.why is not None:
                for part in (f, *pieces):
                    why = verdict.why if part is f else f"rotated from the run of {f.display}: {verdict.why}"
                    self.result.files.append(FileReport(part.display, "ignored"))
                    self.result.skipped.append(Rejection(part.display, "", why))
                continue
            self._add_node_log(f, verdict.previous, pieces)
        for part in (part for pieces in earlier.values() for part in pieces):
            # (every run has a file that stands for it, so none is left; were one left, it is named)
            self.result.files.append(FileReport(part.display, "ignored"))
            self.result.skipped.append(Rejection(part.display, "", "a rotated log no file of its run was told for: "
                                                                   "not read"))

    def _named_by_uid(self, files: list[nodelogs.NodeLogFile]) -> list[nodelogs.NodeLogFile]:
        """The files of folders named by a pod's uid alone (before Kubernetes 1.14), named by
        the dump's pod of that uid (or static pod's config hash); one of a pod the dump lacks is
        skipped, named."""
        by_id: dict[str, tuple[str, str]] = {}
        for o in self.result.objects:
            if o is not None and o.kind == "Pod" and o.api_version == "v1":
                by_id.update(dict.fromkeys(nodelogs.pod_runs(o.body()).ids, (o.namespace, o.name)))
        out = []
        for f in files:
            if f.hint.pod:
                out.append(f)
            elif (pod := by_id.get(f.hint.uid or "")) is not None:
                out.append(nodelogs.NodeLogFile(f.display, replace(f.hint, namespace=pod[0], pod=pod[1]), f.data))
            else:
                self.result.files.append(FileReport(f.display, "ignored"))
                self.result.skipped.append(Rejection(f.display, "", (
                    f"a container log of the pod of uid {f.hint.uid} (its folder, as before Kubernetes 1.14, names "
                    "no pod), which the dump does not hold: whose it is cannot be told; not read")))
        return out

    def _gunzipped(self, files: list[nodelogs.NodeLogFile]) -> list[nodelogs.NodeLogFile]:
        """The files, a rotated one the kubelet gzipped inflated in memory (up to
        MAX_ROTATED_LOG_BYTES); one that is corrupt or inflates past it rejected, named."""
        out = []
        for f in files:
            if f.hint.compressed and not f.hint.unfinished:
                try:
                    f = nodelogs.NodeLogFile(f.display, f.hint, gunzipped(f.data, f.display, MAX_ROTATED_LOG_BYTES))
                except InputError as exc:
                    self.reject_input(f.display, exc.reason)
                    continue
            out.append(f)
        return out

    def _add_node_log(self, f: nodelogs.NodeLogFile, previous: bool, earlier: list[nodelogs.NodeLogFile]) -> None:
        """A run's log file read as `kubectl logs` prints it: the container's text, its split
        lines joined, the runtime's times kept beside it (runtimelog.py), after the lines of the
        run's rotated files, oldest first; a lone file in neither of the runtimes' formats as it is."""
        hint = layouts.LogHint(f.hint.format, f.hint.namespace, f.hint.pod, f.hint.container, previous)
        decoded = []
        for part in (*earlier, f):
            try:
                text = decode_text(part.data, part.display, lines_end_at_newline=True)
            except InputError as exc:
                self.reject_input(part.display, exc.reason)
                continue
            decoded.append((part, text, runtimelog.read_runtime_log(text)))
        if not decoded:
            return
        if len(decoded) == 1 and decoded[0][2] is None:
            self._add_log_file(decoded[0][0].display, decoded[0][0].data, hint)
            return
        source = decoded[-1][0].display
        texts, stamps, places, at = [], [], [], 0
        for part, text, runtime in decoded:
            runtime = runtime or runtimelog.as_written(text)
            file = "" if part.display == source else part.display
            if at or file:
                places.append((at + 1, 1, file))
            places += [(at + text_line, file_line, file) for text_line, file_line in runtime.places]
            texts.append(runtime.text)
            stamps.append(runtime.stamps)
            at += len(runtime.stamps) // STAMP_WIDTH
            # (the format names the kind of file, not its details: the inspect summary lists formats)
            rotated = ", rotated" if file else ""
            self.result.files.append(FileReport(part.display, f"{f.hint.format} logs ({runtime.format}{rotated})",
                                                logs=0 if file else 1))
        self._add_log(LogRecord(hint.namespace, hint.pod, hint.container, "".join(texts), source, previous,
                                stamps="".join(stamps), places=tuple(places)))

    def _add_side_file(self, entry: Entry, data: bytes, display: str) -> None:
        """A bundle file that holds facts about the dump, not objects: read what it says.
"""
        self.result.files.append(FileReport(display, "ignored"))
        facts = _side_file_facts(entry.path, data)
        if facts.get("server_version") and not self.result.server_version:
            self.result.server_version = facts["server_version"]
        if facts.get("created"):
            self.result.stated_capture_times.append((facts["created"], display))
        if (said := layouts.systeminfo_file(display)) is not None and len(data) < _CAPTURE_DATE_FILE_BYTES:
            # (what names a renamed collector folder's node, and when it ran: see _add_unnamed_component_logs)
            self._systeminfo[said] = facts.get("created") or data.decode("utf-8", "replace").strip()
        self.result.collected_kinds.update(facts.get("queried_kinds", ()))
        self.result.skipped.append(Rejection(display, "", layouts.not_objects_reason(entry.path) or layouts.BUNDLE_METADATA))

    # -- bookkeeping ------------------------------------------------------------------------

    def _add_log(self, log: LogRecord) -> None:
        """Attach a log; the same container's log seen twice (a link and its target) is kept once."""
        key = (log.pod, log.container, log.previous)
        slot = self._logs.get(key)
        if slot is not None:
            old = self.result.logs[slot]
            if not old.namespace or not log.namespace or old.namespace == log.namespace:
                if not old.namespace and log.namespace:
                    self.result.logs[slot] = log
                self.result.skipped.append(Rejection(log.source, "", f"same log as {old.source}; kept once"))
                return
        # `kubectl logs POD` names no container: the same text under the container's name (a
        # cluster-info dump section pasted beside it) is the same log, kept once, named.
        same_pod = self._logs_of_pod.setdefault((log.pod, log.previous), [])
        for slot in same_pod:
            old = self.result.logs[slot]
            if (not old.container or not log.container) and old.container != log.container \
                    and (not old.namespace or not log.namespace or old.namespace == log.namespace) \
                    and old.text.strip() == log.text.strip():
                named, unnamed = (log, old) if log.container else (old, log)
                if log.container:
                    self.result.logs[slot] = log
                    self._logs[key] = slot
                self.result.skipped.append(Rejection(unnamed.source, f"line {unnamed.line}", f"log of {log.pod} "
                                                     f"without a container name: the same text as container "
                                                     f"{named.container}'s (line {named.line}); kept once"))
                return
        self._logs[key] = len(self.result.logs)
        same_pod.append(len(self.result.logs))
        self.result.logs.append(log)

    def _keep(self, obj: KubeObject | Rejection, item_index: int | None = None) -> int:
        res = self.result
        if isinstance(obj, NotAnObject):
            res.skipped.append(obj)
            return 0
        res.objects_read += 1
        if isinstance(obj, Rejection):
            if item_index is not None:
                obj = Rejection(obj.source, _join(obj.location, f"item {item_index}"), obj.reason)
            self.reject_object(obj)
            return 0
        if self._mapped is not None and isinstance(obj.raw, memoryview | LazyRaw):
            obj.mapped = self._mapped
        slot = self._by_key.get(obj.key)
        if slot is None and self._sightings is not None and obj.namespace:
            slot = self._unstated_namespace_slot(obj)
        if slot is None and obj.uid:
            slot = self._by_uid.get(obj.uid)
            if slot is not None and not _same_object(res.objects[slot], obj):
                # One uid on two different objects: hand-edited copies, kept apart and noted.
                obj.notes.append(f"uid also used by {res.objects[slot].key.id}")
                slot = None
        if slot is not None:
            res.duplicates += 1
            old = res.objects[slot]
            if (aged := _table_age(obj, old) or _table_age(old, obj)) is not None:
                res.table_ages.append(aged)
            if (restarted := _restart_age(obj, old) or _restart_age(old, obj)) is not None:
                res.table_ages.append(restarted)
            if (self._transcript is not None and old.provenance.source == self._transcript) \
                    or _later_row_of_one_paste(obj, old):
                # the same object seen again later in one transcript (or one pasted table: a
                # `get -w` watch): the later sighting is what the cluster was when it ended
                obj = _with_earlier_state(obj, old)
                obj = _with_earlier_row_columns(obj, old)
                obj = _with_restart_window(obj, old)
                obj = _with_row_changes(obj, old)
                obj = _fragment_over_earlier(obj, old)
                whole = self._whole_of.get(slot, old)
                if obj.provenance.format == FRAGMENT:
                    pass  # laid over the earlier sighting, which stays the whole it was read from
                elif obj.provenance.format not in _FORMAT_RANK:
                    self._whole_of.pop(slot, None)  # read whole again: its own body is the one to keep
                elif whole.provenance.format not in _FORMAT_RANK or (
                        whole.provenance.format == "describe" and obj.provenance.format in sightings.TABLE_ORIGINS):
                    obj = _with_whole_body(obj, whole)
                    self._whole_of[slot] = whole
                obj = _with_row_cells(_with_table_age(obj, old), old)
                obj = _with_known_owners(obj, old)
                res.skipped.append(Rejection(old.provenance.source, old.provenance.location,
                                             f"{old.key.id} superseded by its later sighting"
                                             f" ({obj.provenance.location or 'later in the file'})"
                                             + (f" in namespace {obj.namespace}" if old.key != obj.key else "")))
                obj.duplicates = old.duplicates + 1
                res.objects[slot] = obj
                if old.key != obj.key and self._by_key.get(old.key) == slot:
                    del self._by_key[old.key]
                self._by_key[obj.key] = slot
                self._saw(slot, obj)
                return 0
            if (newer := _newer_by_restarts(obj, old)) is not None:
                # a pod's row that counts more restarts than the other sighting is a later
                # moment (restart counts only grow): its state, over the whole body's spec
                row, whole = (obj, old) if newer is obj else (old, obj)
                kept = _with_whole_body(row, whole)
                if kept is row and row.provenance.format != whole.provenance.format:
                    kept = _with_known_owners(row, whole)
                kept.duplicates = old.duplicates + 1
                res.objects[slot] = kept
                self._by_key[kept.key] = slot
            elif _rank(obj) > _rank(old):
                obj = _with_row_cells(_with_table_age(_with_earlier_state(obj, old), old), old)
                obj.duplicates = old.duplicates + 1
                res.objects[slot] = obj
                self._by_key[obj.key] = slot
            else:
                kept = _with_row_cells(_with_table_age(old, obj), obj)
                kept.duplicates = old.duplicates + 1
                res.objects[slot] = kept
            self._saw(slot, res.objects[slot])
            return 0
        slot = len(res.objects)
        res.objects.append(obj)
        if obj.uid and obj.uid not in self._by_uid:
            self._by_uid[obj.uid] = slot
        self._by_key[obj.key] = slot
        self._saw(slot, obj)
        return 1

    def _saw(self, slot: int, obj: KubeObject) -> None:
        """Note that the transcript being read showed the object in slot."""
        if self._sightings is None:
            return
        if self._shown is not None:
            self._shown.add(slot)
        if obj.provenance.source != self._transcript:
            return  # kept as another file read it: what this transcript says later never drops it
        table = obj.provenance.format in sightings.TABLE_ORIGINS
        self._sightings.seen(slot, obj, self._listing_selector if table else None)

    def _unstated_namespace_slot(self, obj: KubeObject) -> int | None:
        """The slot of an earlier table row of this object that stated no namespace, when this
        transcript shows that kind and name in no other namespace: the same object."""
        key = ObjectKey(obj.key.group, obj.kind, "", obj.name)
        slot = self._by_key.get(key)
        if slot is None:
            return None
        old = self.result.objects[slot]
        if old is None or old.provenance.source != self._transcript or old.provenance.format not in sightings.TABLE_ORIGINS:
            return None
        known = self._sightings.namespaces.get((obj.kind, obj.name), set())
        return slot if known <= {obj.namespace} else None

    def reject_object(self, rejection: Rejection) -> None:
        """Record an object candidate that could not become an object (counted in objects_read)."""
        self.result.rejections.append(rejection)
        self.result.object_rejections.append(rejection)

    def reject_input(self, display: str, reason: str) -> None:
        """Record an input or file that could not be read at all (not counted as objects)."""
        self.result.files.append(FileReport(display, "unreadable"))
        self._record_input_rejection(Rejection(display, "", reason))

    def _record_input_rejection(self, rejection: Rejection) -> None:
        self.result.rejections.append(rejection)
        self.result.input_rejections.append(rejection)


class _SalvagedLines:
    """The lines of the items salvaged from a damaged List, by their place in it (the `lines`
    of their Provenance, as a whole List's `jsondocs.ItemLines` are)."""

    __slots__ = ("_by_place",)

    def __init__(self, by_place: dict[int, int]) -> None:
        self._by_place = by_place

    def line(self, place: int | None) -> int | None:
        return None if place is None else self._by_place.get(place)


def _item_provenances(display: str, fmt: str, index: int | None, item_lines: list[int] | None,
                      count: int) -> list[Provenance]:
    """Where each item of a List was read: its own line where the reader found the items'
    lines, else its index in the List alone."""
    if item_lines is not None and len(item_lines) == count:
        return [Provenance(display, fmt, index, at, i) for i, at in enumerate(item_lines)]
    return [Provenance(display, fmt, index, None, i) for i in range(count)]


def _platform_pod_listed(objects: Any) -> tuple[str, str] | None:
    """The first of these pods the platform itself runs (platform_pods.yaml: `coredns-5d78c9869d-abcde`,
    `kube-proxy-bxb2r`, `etcd-<node>`) and its list there: ("coredns", "kube_system") when one is
    always in kube-system, else ("etcd", "elsewhere_too") when one may run elsewhere; None when
    none is."""
    found = None
    for obj in objects:
        if obj.kind != "Pod":
            continue
        for name, where in _platform_pod_names():
            if obj.name == name or obj.name.startswith(name + "-"):
                if where == "kube_system":
                    return name, where
                found = found or (name, where)
    return found


@cache
def _platform_pod_names() -> tuple[tuple[str, str], ...]:
    from importlib import resources

    from analyzer.safeyaml import load_yaml

    text = resources.files("analyzer.ingest.text").joinpath("platform_pods.yaml").read_text(encoding="utf-8")
    data = load_yaml(text) or {}
    return tuple((str(n), where) for where in ("kube_system", "elsewhere_too") for n in data.get(where, ()))


def _named_kinds(command: Any) -> set[str]:
    """The kinds a command names (`describe node x` -> Node), empty when it names none known
    (`get all`)."""
    from analyzer.ingest.text.catalog import catalog as text_catalog

    kinds = text_catalog()
    return {info.kind for resource in command.resources for part in resource.split(",")
            if (info := kinds.for_resource(part.split("/", 1)[0])) is not None}


# The namespace kubectl lists when a command gives no -n and the context names none.
_ASSUMED_NAMESPACE = "default"

# A tar archive is written in blocks of this size; an empty one is two blocks of zero bytes.
_TAR_BLOCK = 512
# A node's journal file: the lines its start is sniffed from, and how many of its last lines are
# kept (a collector's ten days of a kubelet's journal run to millions; the end is its state now)
_JOURNAL_SNIFF = 8192
_JOURNAL_TAIL = 20_000
_ZERO_BLOCK = bytes(_TAR_BLOCK)

# `kubectl version` as a file's text (its first line)
_KUBECTL_VERSION = re.compile(rb"\s*(?:Client|Server) Version:")

# <folder>/<pod>/<container>[-previous].log: a troubleshoot `logs` collector's output (any
# collector name); read once the dump's pods are known (Ingestor._add_pod_named_logs).
_POD_NAMED_LOG = re.compile(r"(?:^|/)[^/]+/(?P<pod>[a-z0-9][a-z0-9.-]*)/(?P<container>[a-z][a-z0-9-]*?)"
                            r"(?P<previous>-previous)?\.log$")
# <pod>[-previous].log: the same collector's log of a pod of one container before troubleshoot
# 0.49.1, in its folder or at the bundle's root (Ingestor._add_pod_named_logs)
_POD_ALONE_LOG = re.compile(r"(?:^|/)(?P<pod>[a-z0-9][a-z0-9.-]*?)(?P<previous>-previous)?\.log$")


def _pod_log_owner(path: str, data: bytes, pods: dict[str, list[KubeObject]]) -> tuple[str, str, str, bool] | str:
    """Whose log a troubleshoot `logs` collector's file is, from its path and the dump's pods by
    name: (namespace, pod, container, previous), or why it is not read.

    >>> pod = object_from_dict({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-1",
    ...     "namespace": "shop"}, "spec": {"containers": [{"name": "nginx"}]}}, Hints(), Provenance("p", "yaml"))
    >>> _pod_log_owner("b/app-logs/web-1-previous.log", b"x", {"web-1": [pod]})
    ('shop', 'web-1', 'nginx', True)
    >>> _pod_log_owner("b/app-logs/web-1/nginx.log", b"x", {"web-1": [pod]})
    ('shop', 'web-1', 'nginx', False)
    >>> _pod_log_owner("b/web-2.log", b"x", {"web-1": [pod]})
    'plain text that is neither a dump nor a known log layout'
    """
    named, alone = _POD_NAMED_LOG.search(path), _POD_ALONE_LOG.search(path)
    stub = _LINK_STUB.match(data)
    if named is not None and named["pod"] in pods:
        pod, container, previous = named["pod"], named["container"], bool(named["previous"])
    elif alone is not None and alone["pod"] in pods and not stub:
        pod, container, previous = alone["pod"], None, bool(alone["previous"])
    elif stub:
        # (troubleshoot names a link to the log it saved under cluster-resources/ so)
        return f"link to {data.strip().decode('utf-8', 'replace')}; the log is read there"
    else:
        return "plain text that is neither a dump nor a known log layout"
    namespaces = {o.namespace for o in pods[pod]}
    if len(namespaces) != 1:
        return f"a log named after pod {pod}, which the dump holds in several namespaces: not read"
    if container is None:
        spec = getattr(pods[pod][0].view, "spec", None)
        names = [c.name for key in ("containers", "initContainers")
                 for c in (getattr(spec, key, None) or ()) if c.name]
        if len(names) != 1:
            return (f"a log named after pod {pod} alone, as troubleshoot named the log of a pod of one "
                    f"container; the dump's pod has {len(names)}: not read")
        container = names[0]
    return next(iter(namespaces)), pod, container, previous


def _with_whole_body(row: KubeObject, whole: KubeObject) -> KubeObject:
    """A table row seen after the object was read whole: the row's state (status, what its
    columns show) over the whole body's spec and metadata, which a table does not show. (A row
    alone would lose the images, requests and owners the whole object stated.) A describe is
    such a sighting too; a node's conditions stay as it stated them (with their heartbeats) where
    the row's STATUS says the same (an AKS runbook's `describe node` before `get nodes -L`)."""
    if row.provenance.format not in sightings.TABLE_ORIGINS or row.kind != whole.kind \
            or (whole.provenance.format in _FORMAT_RANK and whole.provenance.format != "describe"):
        return row
    body = whole.body()
    if not isinstance(body, dict) or not isinstance(row.raw, dict):
        return row
    merged = _overlay(body, row.raw)
    merged["status"] = row.raw.get("status", {})
    if whole.provenance.format == "describe" and row.kind == "Node":
        merged["status"] = _node_status_kept(body.get("status"), merged["status"])
    elif row.kind == "Pod":
        merged["status"] = _ended_pod_status_kept(body.get("status"), merged["status"], row.raw)
    what = "describe" if whole.provenance.format == "describe" else "whole sighting"
    if whole.provenance.source == row.provenance.source:
        return _remade(row, merged, f"spec and metadata from its earlier {what} ({whole.provenance.location}), "
                       "state from this table")
    # another file's sighting, which may have been read after this one
    where = ", ".join(x for x in (whole.provenance.source, whole.provenance.location) if x)
    return _remade(row, merged, f"spec and metadata from its {what} ({where}), state from this table "
                   "(more restarts: a later moment)")


def _ended_pod_status_kept(said: Any, shown: Any, row: dict[str, Any]) -> Any:
    """A pod's status as its whole sighting stated it when that pod had ended (phase Failed or
    Succeeded: final) with the reason the later row's STATUS repeats (`Evicted`): the row adds
    nothing, and the reason's message (the kubelet's "The node was low on resource: memory",
    derailed/k9s#174) would be lost with the sighting. The row's own status otherwise."""
    if not isinstance(said, dict) or not isinstance(shown, dict) or said.get("phase") not in ("Failed", "Succeeded"):
        return shown
    if not said.get("reason") or (row.get(TEXT_FACTS_KEY) or {}).get("status") != said.get("reason"):
        return shown
    return _overlay(said, shown)


def _node_status_kept(described: Any, shown: Any) -> Any:
    """A node's status as its describe stated it (conditions with their times, addresses, node
    info) when the later row's conditions agree with it, the row's own conditions otherwise."""
    if not isinstance(described, dict) or not isinstance(shown, dict):
        return shown
    said = {c.get("type"): c.get("status") for c in described.get("conditions") or () if isinstance(c, dict)}
    now = {c.get("type"): c.get("status") for c in shown.get("conditions") or () if isinstance(c, dict)}
    if any(said.get(kind) != status for kind, status in now.items()):
        return shown
    return _overlay(described, {k: v for k, v in shown.items() if k != "conditions"})


def _with_known_owners(row: KubeObject, earlier: KubeObject) -> KubeObject:
    """A table row (which shows no owners) seen after a sighting that named them (a describe's
    `Controlled By`): the owners stay, as a pod's controller does not change. Without them the
    row's pod would be grouped by its name alone, apart from its describe's workload."""
    if row.provenance.format not in sightings.TABLE_ORIGINS or row.kind != earlier.kind \
            or not isinstance(row.raw, dict) or (row.raw.get("metadata") or {}).get("ownerReferences"):
        return row
    owners = earlier.view.metadata.ownerReferences
    earlier_meta = earlier.raw.get("metadata") if isinstance(earlier.raw, dict) else None
    refs = (earlier_meta or {}).get("ownerReferences") if owners else None
    if not refs:
        return row
    body = dict(row.raw)
    body["metadata"] = {**(row.raw.get("metadata") or {}), "ownerReferences": refs}
    return _remade(row, body, f"owners from its earlier sighting ({earlier.provenance.location or earlier.provenance.source})")


_DESCRIBE_FIELD = re.compile(r"^(?P<key>[A-Z][\w -]{1,40}):(?:\s|$)")


def _only_describe_event_rows(out: list[tuple[int, str]]) -> bool:
    """Whether every line with text is a describe's Events row (Type, Reason, Age, From, Message).

    >>> _only_describe_event_rows([(1, "Warning  FailedScheduling  4m35s (x39 over 50m)  default-scheduler  0/5 nodes")])
    True
    >>> _only_describe_event_rows([(1, "Warning: the pods were fine.")])
    False
    """
    from analyzer.ingest.text.lines import DESCRIBE_EVENT_ROW

    lines = [t for _, t in out if t.strip()]
    return bool(lines) and all(DESCRIBE_EVENT_ROW.match(t) for t in lines)


def _describe_fragment(out: list[tuple[int, str]]) -> str | None:
    """The section a block of describe lines opens with, when it opens with one of a describe's
    top-level fields other than Name and goes on as a describe does (indented `Key:  value`
    lines): a describe pasted from its middle (None for anything else).

    >>> _describe_fragment([(1, "Containers:"), (2, "  static:"), (3, "    Image:   x:v1"), (4, "    State:   Running")])
    'Containers'
    >>> _describe_fragment([(1, "Note: the pods were fine."), (2, "  Image: x")]) is None
    True
    """
    from analyzer.ingest.text.describe.layout import describe_layout
    from analyzer.ingest.text.lines import is_rule_line

    lines = [t for _, t in out if t.strip()]
    m = _DESCRIBE_FIELD.match(lines[0]) if lines else None
    if m is None or m["key"] == "Name" or m["key"] not in describe_layout().all_top:
        return None
    fields = sum(1 for t in lines[1:] if t[:1].isspace() and _DESCRIBE_FIELD.match(t.strip()))
    if m["key"] == "Conditions" and fields < 2 and len(lines) > 2 and lines[1].split()[:2] == ["Type", "Status"]:
        # a node's Conditions: a table of rows, not `Key:  value` lines (karpenter-provider-aws#7029)
        return m["key"]
    if fields < 2 and len(lines) > 2 and lines[1][:1].isspace() and is_rule_line(lines[2]):
        # a section printed as a table, its header and rule indented under it (a node's
        # Non-terminated Pods: kubernetes/kubernetes#107899)
        return m["key"]
    return m["key"] if fields >= 2 else None


def _table_age(whole: KubeObject, row: KubeObject) -> tuple[str, str] | None:
    """(UTC time, where) of the capture a table row's AGE gives for an object read whole (YAML,
    JSON) that the row is merged into: its creation plus that age (holmesgpt 05_image_version: a
    pod's `-o yaml` and its `get -o wide` row AGE 47h; the row's age was lost with the row). A
    describe that prints the object's CreationTimestamp is as whole for this: a NotReady node's
    describe shows its last heartbeat, maybe days before the session its `get nodes` AGE dates."""
    if whole.provenance.format in sightings.TABLE_ORIGINS or row.provenance.format not in sightings.TABLE_ORIGINS \
            or whole.kind != row.kind or not isinstance(row.raw, dict):
        return None
    age = (row.raw.get(TEXT_FACTS_KEY) or {}).get("age_seconds")
    created = parse_time(whole.view.metadata.creationTimestamp)
    if not isinstance(age, (int, float)) or created is None:
        return None
    when = (created + timedelta(seconds=age)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return when, (f"{whole.key.id} metadata.creationTimestamp + the AGE of its table row "
                  f"({row.provenance.source}{', ' + row.provenance.location if row.provenance.location else ''})")


def _restart_age(whole: KubeObject, row: KubeObject) -> tuple[str, str] | None:
    """(UTC time, where) of the capture a pod's table row gives with `RESTARTS 1569 (4m28s ago)`
    when the pod read whole (a describe's Last State, YAML, JSON) states when its containers last
    ended: kubectl counts that "ago" from the newest lastState.terminated.finishedAt, to the
    second (a session against realdata's AKS arena dump: Finished 07:56:41 + 4m28s = 08:01:09,
    the dump's own heartbeat)."""
    if whole.kind != "Pod" or row.kind != "Pod" or whole.provenance.format in sightings.TABLE_ORIGINS \
            or row.provenance.format not in sightings.TABLE_ORIGINS or not isinstance(row.raw, dict):
        return None
    facts = row.raw.get(TEXT_FACTS_KEY) or {}
    ago, restarts = facts.get("last_restart_ago_seconds"), facts.get("restarts")
    status = whole.view.status
    containers = (*(status.containerStatuses or ()), *(status.initContainerStatuses or ()))
    finished = [t for s in containers if s.lastState is not None and s.lastState.terminated is not None
                and (t := parse_time(s.lastState.terminated.finishedAt)) is not None]
    # the same restart, seen twice: the row's count (kubectl sums its containers') is the whole
    # object's (a fixture's row of 16 restarts is a later moment than its describe's 7)
    if not isinstance(ago, (int, float)) or not finished \
            or restarts != sum(s.restartCount or 0 for s in (status.containerStatuses or ())):
        return None
    when = (max(finished) + timedelta(seconds=ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return when, (f"{whole.key.id} status.containerStatuses.lastState.terminated.finishedAt + the RESTARTS "
                  f"(... ago) of its table row ({row.provenance.source}"
                  f"{', ' + row.provenance.location if row.provenance.location else ''})")


def _pod_restarts(obj: KubeObject) -> int | None:
    """The restarts a pod's sighting counts: its table row's RESTARTS (kubectl sums its
    containers'), else its containers' restartCount summed; None when it states none."""
    if obj.kind != "Pod" or not isinstance(obj.raw, dict):
        return None
    facts = obj.raw.get(TEXT_FACTS_KEY) or {}
    if obj.provenance.format in sightings.TABLE_ORIGINS or isinstance(facts.get("restarts"), int):
        restarts = facts.get("restarts")
        return restarts if isinstance(restarts, int) else None
    statuses = obj.view.status.containerStatuses or ()
    counts = [s.restartCount for s in statuses if isinstance(s.restartCount, int)]
    return sum(counts) if counts else None


# A report's header line stating its namespace, at the margin: `Namespace: cloudbeaver`.
_REPORT_NAMESPACE = re.compile(r"^Namespace:[ \t]+(?P<ns>[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)[ \t]*$")


def _report_namespace(text: str) -> str | None:
    """The one namespace a report's header states (`Namespace: cloudbeaver` under `Trigger: push
    by ...`), a `Namespace:` line at the margin that is no describe's (a describe prints it right
    under its `Name:`); None where the text states none, or two.

    >>> _report_namespace("Deployment Report: core/x\\nTrigger: push by a\\nNamespace: cloudbeaver\\n---")
    'cloudbeaver'
    >>> _report_namespace("Name:         web-1\\nNamespace:    shop\\nStatus:  Running") is None
    True
    >>> _report_namespace("Name:             web\\nLabels:           app=web\\n                  tier=x\\n"
    ...                   "Namespace:        shop\\nAddress:          10.0.0.7") is None
    True
    """
    found: set[str] = set()
    # the last line at the margin: a describe's Name, or an Ingress's Labels (kubectl describes
    # an Ingress as Name, Labels, Namespace; its labels may run over indented lines)
    above = ""
    for line in text.split("\n"):
        if (m := _REPORT_NAMESPACE.match(line)) and not above.startswith(("Name:", "Labels:")):
            found.add(m.group("ns"))
        if line.strip() and not line[:1].isspace():
            above = line
    return found.pop() if len(found) == 1 else None


def _stated_namespaces(objects: list[Any]) -> dict[tuple[str, str], set[str]]:
    """The namespaces one paste shows each kind and name in (a describe's Namespace line, a
    table's NAMESPACE column or -n)."""
    found: dict[tuple[str, str], set[str]] = {}
    for obj in objects:
        if obj.namespace and obj.kind and obj.name:
            found.setdefault((obj.kind, obj.name), set()).add(obj.namespace)
    return found


def _namespace_from_paste(obj: Any, stated: dict[tuple[str, str], set[str]]) -> tuple[str, str] | None:
    """A table row without a namespace takes the one namespace the same paste (no prompts: a
    ticket's `get pods` then `describe pod` of one of them) shows its kind and name in, as a
    transcript's row does, so the two are one object; never where the paste shows that name in
    two namespaces. Returns the namespace and the note saying so."""
    if obj.origin not in sightings.TABLE_ORIGINS or obj.namespace or not obj.kind or not obj.name:
        return None
    found = stated.get((obj.kind, obj.name), set())
    if len(found) != 1:
        return None
    namespace = next(iter(found))
    obj.body["metadata"]["namespace"] = namespace
    return namespace, (f"namespace not stated by its table: {namespace}, the one namespace this paste "
                       f"shows {obj.kind} {obj.name} in")


def _later_row_of_one_paste(obj: KubeObject, old: KubeObject) -> bool:
    """Whether `obj` is a table row of the object below an earlier row of it in the same pasted
    text: a `kubectl get -w` watch (or two listings) pasted with no prompt, whose last row is
    the state when it ended (kubernetes/kubernetes#91215's watch kept its first row,
    ContainerCreating with 0 restarts, and lost the 7 restarts and the crash loop after it)."""
    mine, theirs = obj.provenance, old.provenance
    return mine.source == theirs.source and mine.format in sightings.TABLE_ORIGINS \
        and theirs.format in sightings.TABLE_ORIGINS and mine.line is not None and theirs.line is not None \
        and mine.line > theirs.line


def _newer_by_restarts(obj: KubeObject, old: KubeObject) -> KubeObject | None:
    """Of two sightings of one pod in two files, the table row that counts more restarts than
    the other: a later moment of the pod, whose state is the one to keep (realdata
    aks/holmesgpt-fixtures: its describe and `-o yaml` say 7 restarts, a `get -o wide` row
    `9 (104s ago)` and a `get -A | grep` row `16 (5m11s ago)`). None when neither is."""
    if obj.kind != "Pod" or old.kind != "Pod" or obj.provenance.source == old.provenance.source:
        return None
    mine, theirs = _pod_restarts(obj), _pod_restarts(old)
    if mine is None or theirs is None or mine == theirs:
        return None
    newer = obj if mine > theirs else old
    return newer if newer.provenance.format in sightings.TABLE_ORIGINS or isinstance(
        (newer.raw.get(TEXT_FACTS_KEY) or {}).get("restarts"), int) else None


def _with_table_age(obj: KubeObject, other: KubeObject) -> KubeObject:
    """A described object (describe shows no AGE, a pod's not even its creation) with the AGE
    of a table row of it read beside it: how old it was stays known (with the capture time,
    when it was created). Only where the described object states no creation of its own."""
    if obj.provenance.format != "describe" or other.provenance.format not in sightings.TABLE_ORIGINS \
            or obj.kind != other.kind or not isinstance(obj.raw, dict) or not isinstance(other.raw, dict):
        return obj
    row = other.raw.get(TEXT_FACTS_KEY) or {}
    age, printed = row.get("age_seconds"), (row.get("columns") or {}).get("AGE")
    facts = obj.raw.get(TEXT_FACTS_KEY) or {}
    if age is None or facts.get("age_seconds") is not None or (obj.raw.get("metadata") or {}).get("creationTimestamp"):
        return obj
    body = dict(obj.raw)
    # the AGE cell too, so that `kda get` prints it as it prints the row's (as of the paste)
    columns = {**(facts.get("columns") or {}), **({"AGE": printed} if printed else {})}
    body[TEXT_FACTS_KEY] = {**facts, "age_seconds": age, **({"columns": columns} if columns else {})}
    return _remade(obj, body, f"age from its table row ({other.provenance.location or other.provenance.source})")


def _with_row_cells(obj: KubeObject, other: KubeObject) -> KubeObject:
    """A described object with the cells a table row of it beside it printed (`row_columns`):
    what its describe does not state (a DaemonSet's or StatefulSet's ready count) `kda get`
    prints as that row did, not as unknown, while what the describe states stays its own."""
    if obj.provenance.format != "describe" or other.provenance.format not in sightings.TABLE_ORIGINS \
            or obj.kind != other.kind or not isinstance(obj.raw, dict) or not isinstance(other.raw, dict):
        return obj
    shown = (other.raw.get(TEXT_FACTS_KEY) or {}).get("columns")
    facts = obj.raw.get(TEXT_FACTS_KEY) or {}
    if not isinstance(shown, dict) or not shown or facts.get("row_columns") == shown:
        return obj
    body = {**obj.raw, TEXT_FACTS_KEY: {**facts, "row_columns": dict(shown)}}
    return _remade(obj, body, f"cells its describe does not state as its table row "
                              f"({other.provenance.location or other.provenance.source}) printed them")


def _about_named(obj: KubeObject, named: set[str] | frozenset[str]) -> bool:
    """Whether `obj` is an event of a describe about an object of the kinds its command names
    (a describe without -n whose Events alone were pasted: the scheduler's `Successfully assigned
    NS/NAME` in them states the namespace)."""
    involved = obj.raw.get("involvedObject") if obj.kind == "Event" and isinstance(obj.raw, dict) else None
    return isinstance(involved, dict) and involved.get("kind") in named



def _cut_rows(rejections: list[Rejection], objects: list[KubeObject | None]) -> bool:
    """Whether the paste cut a table's row off: a last row too short to read (a rejection), or
    a row kept without its last cells (its object's note)."""
    from analyzer.ingest.text.table_objects import CUT_ROW
    return any(CUT_ROW in r.reason for r in rejections) or any(
        CUT_ROW in note for o in objects if o is not None for note in o.notes)


def _fragment_over_earlier(later: KubeObject, earlier: KubeObject) -> KubeObject:
    """An object's conditions or taints pasted alone after an earlier sighting of it (karpenter-
    provider-aws#644: `get node X`, then `get node X -o yaml | grep -A 2 taints:`): the fragment
    laid over that sighting, which keeps the rest (its AGE, version, labels). The row's STATUS
    goes with conditions the fragment replaces (a container's state leaves it: the row's STATUS
    says the state now, a quoted Last State what came before). Kept alone, the node lost its age."""
    from analyzer.ingest.text.fragments import fragment_part

    if later.provenance.format != FRAGMENT or later.kind != earlier.kind or not isinstance(later.raw, dict):
        return later
    base = earlier.body()
    if not isinstance(base, dict):
        return later
    merged = _overlay(base, later.raw)
    if "conditions" in (later.raw.get("status") or {}) and isinstance(base.get(TEXT_FACTS_KEY), dict):
        facts = {k: v for k, v in base[TEXT_FACTS_KEY].items() if k != "status"}
        if isinstance(facts.get("columns"), dict):
            facts["columns"] = {k: v for k, v in facts["columns"].items() if k != "STATUS"}
        merged[TEXT_FACTS_KEY] = facts
    made = object_from_dict(merged, Hints(), later.provenance)
    if not isinstance(made, KubeObject):
        return later
    what = fragment_part(later.raw)
    made.notes.extend(n for n in earlier.notes if n not in made.notes)
    made.notes.append(f"its {what} from this paste, the rest as its earlier sighting "
                      f"({earlier.provenance.location or earlier.provenance.source}) stated it")
    return made


def _with_earlier_state(later: KubeObject, earlier: KubeObject) -> KubeObject:
    """A describe cut short (the paste ends mid-section), or a row of another object's describe
    (a pod in a node's Non-terminated Pods), over an earlier sighting of the object: what the
    describe states wins, and what it never reached (a node's conditions after a cut in its
    Labels, a pod's status) stays as the earlier sighting (a `kubectl get` row) stated it.
    Replacing the row outright would turn a NotReady node or a Pending pod into one of unknown
    state."""
    if later.provenance.format != "describe" or later.kind != earlier.kind or not isinstance(later.raw, dict):
        return later
    facts = later.raw.get("x-kda-text")
    cut = facts.get("cut_in") if isinstance(facts, dict) else None
    ends_after = facts.get("ends_after") if isinstance(facts, dict) else None  # a whole last section
    row_of = facts.get("row_of") if isinstance(facts, dict) else None
    begins_at = facts.get("begins_at") if isinstance(facts, dict) else None  # an excerpt from its middle on
    base = earlier.body()
    if not (cut or ends_after or row_of or begins_at) or not isinstance(base, dict):
        return later
    if row_of:
        return _remade(later, _overlay(base, later.raw),
                       f"a row of {row_of}: what it does not state is as its earlier sighting "
                       f"({earlier.provenance.location or earlier.provenance.source}) stated it")
    if (later.raw.get("metadata") or {}).get("creationTimestamp") and isinstance(base.get(TEXT_FACTS_KEY), dict):
        # a creation the describe states is the object's own: the row's AGE does not ride along
        row = dict(base[TEXT_FACTS_KEY])
        row.pop("age_seconds", None)
        if isinstance(row.get("columns"), dict):
            row["columns"] = {k: v for k, v in row["columns"].items() if k != "AGE"}
        base = {**base, TEXT_FACTS_KEY: row}
    said = [f"begins at its section '{begins_at}'"] if begins_at else []
    if cut or ends_after:
        said.append(f"ends mid-section '{cut}'" if cut else f"ends after its section '{ends_after}'")
    return _remade(later, _overlay(base, later.raw),
                   f"its describe {' and '.join(said)}: what it does not reach is as its earlier "
                   f"sighting ({earlier.provenance.location or earlier.provenance.source}) stated it")


# What an earlier table row showed of an object that a later, narrower row of it does not show,
# and that does not change while the object lives: a node's addresses, OS, kernel and runtime
# (`-o wide`), a pod's node and IP (a pod never moves). (column, path in the body)
_LASTING_COLUMNS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "Node": (("INTERNAL-IP", ("status", "addresses")), ("OS-IMAGE", ("status", "nodeInfo", "osImage")),
             ("KERNEL-VERSION", ("status", "nodeInfo", "kernelVersion")),
             ("CONTAINER-RUNTIME", ("status", "nodeInfo", "containerRuntimeVersion"))),
    "Pod": (("NODE", ("spec", "nodeName")), ("IP", ("status", "podIP"))),
}


def _with_earlier_row_columns(later: KubeObject, earlier: KubeObject) -> KubeObject:
    """A table row after an earlier row of the object that showed more columns (`get nodes -o
    wide`, then `get nodes -L zone`): what the earlier showed and a later one cannot have changed
    (_LASTING_COLUMNS) stays. An AKS runbook's nodes lost their OS image and runtime to a later
    narrower listing, and the report's node pools split on "unknown"."""
    lasting = _LASTING_COLUMNS.get(later.kind)
    if not lasting or later.kind != earlier.kind or later.provenance.format not in sightings.TABLE_ORIGINS \
            or earlier.provenance.format not in sightings.TABLE_ORIGINS or not isinstance(later.raw, dict):
        return later
    before, body = earlier.body(), later.raw
    if not isinstance(before, dict):
        return later
    said = (before.get(TEXT_FACTS_KEY) or {}).get("columns") or {}
    shown = (body.get(TEXT_FACTS_KEY) or {}).get("columns") or {}
    age_before = (before.get(TEXT_FACTS_KEY) or {}).get("age_seconds")
    age_now = (body.get(TEXT_FACTS_KEY) or {}).get("age_seconds")
    if not isinstance(age_before, int | float) or not isinstance(age_now, int | float) or age_now * 1.1 < age_before:
        return later  # younger than before: made again under its name (a StatefulSet's pod), maybe elsewhere
    kept: dict[str, Any] = {}
    columns: dict[str, Any] = {}
    for column, path in lasting:
        if column in shown or column not in said or _at(body, path) is not None or (value := _at(before, path)) is None:
            continue
        node = kept
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
        columns[column] = said[column]
    if not kept:
        return later
    facts = dict(body.get(TEXT_FACTS_KEY) or {})
    facts["columns"] = {**shown, **columns}
    return _remade(later, {**_overlay(kept, body), TEXT_FACTS_KEY: facts},
                   f"{', '.join(columns)} from its earlier row ({earlier.provenance.location})")


def _with_restart_window(later: KubeObject, earlier: KubeObject) -> KubeObject:
    """A pod's table row after an earlier row of it in one session (a `get pods -w` watch, a
    listing before and after a fix), when kubectl printed no `(5m ago)` in RESTARTS: the rows'
    counts and AGEs bound its last restart. A count that rose came between the two rows; one
    that did not came before the earlier row (kubernetes/kubernetes#91215: a watch whose 7th
    restart showed at AGE 7m45s, the 6th at 4m56s, was 'the last at most 8m9s before')."""
    if later.kind != "Pod" or earlier.kind != "Pod" or later.provenance.format not in sightings.TABLE_ORIGINS \
            or earlier.provenance.format not in sightings.TABLE_ORIGINS or not isinstance(later.raw, dict):
        return later
    row, before = later.raw.get(TEXT_FACTS_KEY) or {}, (earlier.body() or {}).get(TEXT_FACTS_KEY) or {}
    count, count_before = row.get("restarts"), before.get("restarts")
    age, age_before = row.get("age_seconds"), before.get("age_seconds")
    unit = age_unit_seconds((row.get("columns") or {}).get("AGE"))
    unit_before = age_unit_seconds((before.get("columns") or {}).get("AGE"))
    if row.get("last_restart_ago_seconds") is not None or not isinstance(count, int) or not count \
            or not isinstance(count_before, int) or count < count_before or None in (age, age_before, unit, unit_before) \
            or age < age_before:
        return later  # kubectl said when; no restart; or not the same pod (made again under its name)
    # the time between the two rows, as their AGEs (each printed to its last unit) allow
    least, most = max(age - age_before - unit_before, 0.0), age + unit - age_before
    where = earlier.provenance.location or "an earlier row"
    if count > count_before:
        window = [0.0, most]
        seen = (f"{count_before} restarts at AGE {(before.get('columns') or {}).get('AGE')} ({where}), {count} at AGE "
                f"{(row.get('columns') or {}).get('AGE')} ({later.provenance.location or 'a later row'})")
    elif isinstance(before.get("last_restart_window"), list) and len(before["last_restart_window"]) == 2:
        low, high = before["last_restart_window"]
        window = [low + least, high + most if high is not None else None]
        seen = before.get("last_restart_seen") or where
    else:
        window = [least, None]
        seen = f"{count_before} restarts already at AGE {(before.get('columns') or {}).get('AGE')} ({where})"
    body = {**later.raw, TEXT_FACTS_KEY: {**row, "last_restart_window": window, "last_restart_seen": seen}}
    return _remade(later, body, f"its last restart bounded by its earlier row ({where})")


def _with_row_changes(later: KubeObject, earlier: KubeObject) -> KubeObject:
    """A table row after an earlier row of the object in one session (`get nodes` run again and
    again through an upgrade, a `get pods -w` watch): the cells that changed between the two rows
    and when, as their AGEs place the earlier row before this one, so that the timeline keeps
    what only the earlier rows showed (sealos#481: a node's STATUS Ready,SchedulingDisabled and
    kubelet v1.16.10 before its upgrade, kept only as 'superseded'). A younger later row is the
    object made again under its name: its history is its own."""
    if later.provenance.format not in sightings.TABLE_ORIGINS or earlier.provenance.format not in sightings.TABLE_ORIGINS \
            or later.kind != earlier.kind or not isinstance(later.raw, dict):
        return later
    row, before = later.raw.get(TEXT_FACTS_KEY) or {}, (earlier.body() or {}).get(TEXT_FACTS_KEY) or {}
    age, age_before = row.get("age_seconds"), before.get("age_seconds")
    if not isinstance(age, int | float) or not isinstance(age_before, int | float) or age < age_before:
        return later
    gap = float(age - age_before)
    history = [{**c, "between": [c["between"][0] + gap, c["between"][1] + gap]}
               for c in before.get("row_changes") or ()]
    cells = changed_cells(before.get("columns") or {}, row.get("columns") or {})
    if cells:
        where = [earlier.provenance.location, later.provenance.location]
        history.append({"between": [gap, 0.0], "cells": {k: list(v) for k, v in cells.items()},
                        "rows": " and ".join(w for w in where if w)})
    if not history:
        return later
    return _remade(later, {**later.raw, TEXT_FACTS_KEY: {**row, "row_changes": history}},
                   f"what changed since its earlier row ({earlier.provenance.location})")


def _at(body: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        body = body.get(key) if isinstance(body, dict) else None
    return body


def _remade(obj: KubeObject, body: dict[str, Any], note: str) -> KubeObject:
    """`obj` made again from an amended body, its notes kept and `note` (what was amended, from
    where) added; `obj` itself when the body no longer makes an object."""
    made = object_from_dict(body, Hints(), obj.provenance)
    if not isinstance(made, KubeObject):
        return obj
    made.notes.extend(n for n in obj.notes if n not in made.notes)
    made.notes.append(note)
    return made


def _overlay(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """base with top's values laid over it, mapping by mapping (top wins elsewhere)."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _overlay(out[key], value)
        else:
            out[key] = value
    return out


def _json_typed(obj: KubeObject | Rejection, json_types: bool) -> KubeObject | Rejection:
    """Mark an object read from YAML by the fast parser alone as holding JSON's types only."""
    if json_types and isinstance(obj, KubeObject):
        obj.json_types = True
    return obj


def _same_object(a: KubeObject, b: KubeObject) -> bool:
    """Whether two objects with one uid are one object: same kind and name, and no two namespaces."""
    return (
        a.kind == b.kind and a.name == b.name
        and (a.namespace == b.namespace or not a.namespace or not b.namespace)
    )


def _yaml_list_items(value: Any) -> list | None:
    """The items of a parsed List (an empty list for Go's `items: null`), or None if not a List."""
    if not isinstance(value, dict):
        return None
    for key in ("items", "Items"):
        if key in value:
            items = value[key]
            if isinstance(items, list):
                return items
            kind = value.get("kind")
            if items is None and (kind is None or (isinstance(kind, str) and kind.endswith("List"))):
                return []
    return None


# A capture date file holds a few lines of dates (a must-gather's timestamp: two per gather
# script run); a larger file of that name is something else.
_CAPTURE_DATE_FILE_BYTES = 4096


def _holds_no_objects(path: str | None) -> bool:
    """Whether a bundle's layout says the file at this path is a log or holds no objects (not
    parsed for them)."""
    return bool(path) and bool(layouts.log_hint(path) or layouts.joined_log_hint(path)
                               or layouts.node_log_hint(path) or layouts.is_not_objects(path))


_KUBE_VERSION_WORD = re.compile(r"v[0-9]+\.[0-9]+\.[0-9]+[-+.a-z0-9]*")


def _side_file_facts(path: str, data: bytes) -> dict[str, Any]:
    """Server version and creation time stated by bundle metadata files, where they say them,
    and the kinds a collector queried (found none or not)."""
    facts: dict[str, Any] = {}
    if layouts.is_capture_date_file(path) and len(data) < _CAPTURE_DATE_FILE_BYTES:
        from analyzer.ingest.headerdate import parse_stated_time

        # one time a line (a must-gather's timestamp: each gather's start and end): the newest
        lines = data.decode("utf-8", "replace").splitlines()
        times = [when for line in lines if (when := parse_stated_time(" ".join(line.split()))) is not None]
        if times:
            facts["created"] = max(times).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return facts
    if path.endswith("/kubernetes-version.txt") and len(data) < _CAPTURE_DATE_FILE_BYTES:
        # kind export logs: the node's `kubeadm version`-style one word, "v1.24.6"
        said = data.decode("utf-8", "replace").strip()
        if _KUBE_VERSION_WORD.fullmatch(said):
            facts["server_version"] = said
        return facts
    try:
        if path.endswith(".json"):
            doc = msgspec.json.decode(data)
        elif path.endswith(".yaml"):
            doc = yamldocs.parse_yaml_document(data.decode("utf-8", "replace"))
        else:
            return facts
    except (msgspec.DecodeError, yamldocs.YamlDocumentError, UnicodeError):
        return facts
    if path.endswith("meta/query-time.json") and isinstance(doc, list):
        # sonobuoy's record of every query it ran (and how long it took): it writes a kind's
        # file only where the list is not empty, so a kind queried with no file has none
        facts["queried_kinds"] = sorted({kind for q in doc if isinstance(q, dict) and isinstance(q.get("queryobj"), str)
                                         and (kind := layouts.kind_for_resource(q["queryobj"])) is not None})
        return facts
    if not isinstance(doc, dict):
        return facts
    if path.endswith("serverversion.json") and isinstance(doc.get("gitVersion"), str):
        facts["server_version"] = doc["gitVersion"]  # sonobuoy's: the /version answer itself
    if path.endswith("cluster_version.json"):
        info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
        version = doc.get("string") or info.get("gitVersion")
        if isinstance(version, str):
            facts["server_version"] = version
    # support-bundle-kit metadata.yaml: kubernetesversion, bundlecreatedat
    if isinstance(doc.get("kubernetesversion"), str):
        facts["server_version"] = doc["kubernetesversion"]
    created = doc.get("bundlecreatedat")
    if isinstance(created, str) and TIMESTAMP_RX.match(created):
        facts["created"] = created
    return facts


# kubectl's own Go panic where a command's output would be (kubectl 1.32's `logs` of a pod
# whose spec lists no container: "panic: runtime error: index out of range" in
# k8s.io/kubectl/pkg/polymorphichelpers): a crash of the client, not of the pod
_KUBECTL_CRASH = re.compile(r"\Apanic: [^\n]*\n(?:.*\n)*?\s*k8s\.io/kubectl/pkg/")


def _kubectl_error(data: bytes) -> str | None:
    """kubectl's error, when a file holds only that (a few lines, the first its error). Only
    the API server's refusals: a program's own log may well be one line `error: ...`."""
    head = data[:2048].decode("utf-8", "replace").strip()
    lines = head.splitlines()
    if not lines or len(lines) > 3 or len(data) > 2048 or not lines[0].startswith("Error from server ("):
        return None
    return lines[0]


def _never_created(pod: KubeObject) -> bool:
    """A Pod as a manifest file states it: no creation time and no status (a static pod's
    manifest on the node's disk, or a file about to be applied)."""
    meta = pod.view.metadata
    status = getattr(pod.view, "status", None)
    return (getattr(meta, "creationTimestamp", None) is None and getattr(pod.view, "text", None) is None
            and (status is None or (getattr(status, "phase", None) is None and not getattr(status, "containerStatuses", None))))


def _is_object_like(env: jsondocs.Envelope) -> bool:
    return bool(env.kind) or env.list_items() is not None


def _tail_name(display: str) -> str:
    """The file name of a display path (an archive member's own name)."""
    return display.split("!/")[-1].rsplit("/", 1)[-1]


def _rank(obj: KubeObject) -> int:
    return _FORMAT_RANK.get(obj.provenance.format, 2)


def _join(a: str, b: str) -> str:
    return f"{a}, {b}" if a else b


_AT_LINE = re.compile(r"at line (\d+)")
# a node's host name as `hostname` prints it (one word), and a stated time's date
_HOSTNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}")
_ISO_DATE = re.compile(r"\d{4}-\d\d-")


def _error_line_within(error: str, line: int, offset: int, starts: list[int]) -> bool:
    """Whether the document's error (which says more: a console's wrap, the line) is about the
    item starting `offset` lines into it: the line it names lies in that item."""
    m = _AT_LINE.search(error)
    if m is None:
        return False
    at = int(m.group(1)) - line
    after = [s for s in starts if s > offset]
    return offset <= at < (after[0] if after else at + 1)


def _named_hint(command: Command, fmt: str) -> layouts.PathHint | None:
    """What `kubectl get KIND NAME [-n NS] -o yaml|json` says of the one object it prints, for
    an object pasted without the lines that say it (kubernetes/autoscaler#2287: `get configmap
    cluster-autoscaler-status -o yaml` quoted from its data down, cut before `kind:`); None where
    the command names no single object of one known kind."""
    from analyzer.ingest.text import catalog as text_catalog

    if command.verb != "get" or len(command.resources) != 1 or len(command.names) != 1:
        return None
    info = text_catalog.catalog().for_resource(command.resources[0])
    if info is None:
        return None
    return layouts.PathHint(fmt, kind=info.kind, name=command.names[0], api_version=info.api_version,
                            namespace=command.namespace if info.namespaced else None)


def _hints(kind: str | None, hint: layouts.PathHint | None) -> Hints:
    if hint is None:
        return Hints(kind=kind)
    return Hints(kind=kind or hint.kind, api_version=hint.api_version, namespace=hint.namespace, name=hint.name,
                 cluster_scoped=hint.cluster_scoped)


def _foreign_encoding(data: bytes | mmap.mmap) -> bool:
    """A BOM, or UTF-16 (NUL bytes) near the start: the text must be decoded first."""
    return data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:4096]


def _is_wrapped(data: bytes | mmap.mmap) -> bool:
    """A terminal frame (k9s) or a tool-call record (HolmesGPT) around kubectl's output."""
    return _FRAME_UTF8 in data[:8192] or wrappers.looks_like_tool_output(data[:512])


def _normalise_bytes(data: bytes, display: str) -> bytes:
    """UTF-8 bytes with "\\n" line ends; plain UTF-8 input is passed through without a copy."""
    if _foreign_encoding(data) or b"\r" in data[:65536]:
        return decode_text(data, display).encode("utf-8")
    if b"\r" in data:
        return data.replace(b"\r\n", b"\n")
    return data


def _short(command: str | None, limit: int = 80) -> str:
    """A command or a line as a note or reason quotes it: its credentials masked, then cut (so a
    cut never leaves the start of a password bare: `docker login -u me -p Hx7…`)."""
    text = mask_sensitive((command or "").strip())
    if len(text) <= limit:
        return text
    cut = limit - 1
    masked = text.find(MASK, max(0, cut - len(MASK) + 1))
    if -1 < masked < cut:  # never half a mask
        cut = masked + len(MASK)
    return text[:cut] + "…"


def _normalised(command: str | None) -> str:
    from analyzer.ingest.text.transcript import normalise_command

    return normalise_command(command or "")


def _dedented_yaml(text: str) -> str:
    """YAML pasted with a common indentation (a quoted or indented paste) moved back to column 0."""
    rows = text.split("\n")
    widths = [len(r) - len(r.lstrip(" ")) for r in rows if r.strip()]
    cut = min(widths, default=0)
    return "\n".join(r[cut:] if r.strip() else r for r in rows) if cut else text


# how the JSON and YAML readers say a List's text ends inside it (jsondocs.CUT_OFF, yamldocs.CUT_OFF and
# CUT_OFF_LIST_END, and a List cut between its items), said of a paste in a transcript instead
_FILE_ENDS, _PASTE_ENDS = "the file ends ", "the paste ends "


def _open_brackets(text: str) -> int:
    """How many JSON brackets a text leaves open (brackets inside strings not counted)."""
    depth = 0
    for token in re.finditer(r'"(?:[^"\\]|\\.)*"|[{}\[\]]', text):
        t = token.group(0)
        if t in "{[":
            depth += 1
        elif t in "}]":
            depth -= 1
    return depth


def _looks_like_kubectl_text(text: str) -> bool:
    from analyzer.ingest.text import looks_like_kubectl_text

    return looks_like_kubectl_text(text)
