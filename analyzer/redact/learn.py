"""What to replace: the words that identify a customer, learned from the dump before rewriting.

Node names, host and domain names, cluster, resource-group, compartment and project names,
account and subscription ids (and, on request, namespace and object names) are learned first,
so that every later occurrence, in any file, log line or event message, gets the same pseudonym.
Words the analysis itself reads (every word of the analyzer's code and data), the dump's own keys,
and the words of public domains are never learned: joins, detection and parsing stay intact.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from analyzer.ingest.collect import IngestResult
from analyzer.redact.patterns import AWS_PUBLIC_ACCOUNTS, EMAIL, HOSTNAME, IPV4, LEARNED_IDS, UUID
from analyzer.redact.pseudonyms import Pseudonyms
from analyzer.safeyaml import load_yaml
from analyzer.sensitive.credentials import is_already_redacted

_PACKAGE = Path(__file__).resolve().parents[1]
_LETTERS = re.compile(r"[A-Za-z]+")
_WORD = re.compile(r"[A-Za-z0-9]+")
_UUID = re.compile(rf"^{UUID}$")
_AKS_NODE_GROUP = re.compile(r"(?i)^MC_(?P<group>.+)_(?P<cluster>[^_]+)_(?P<region>[a-z]+[0-9]?)$")

# Namespaces whose object names are the platform's, never a customer's (with --names).
_SYSTEM_NAMESPACE = re.compile(
    r"^(?:kube-|openshift|calico-|tigera-|cattle-|istio-|gatekeeper-|cert-manager$|ingress-nginx$|gmp-|gke-|"
    r"azure-|aws-|amazon-|oci-|local-path-storage$|kubernetes-dashboard$|flux-system$|longhorn-system$|"
    r"metallb-system$|harvester-|fleet-|rancher-|default$)")


@cache
def _domains() -> dict[str, tuple[str, ...]]:
    data = load_yaml((Path(__file__).with_name("domains.yaml")).read_text(encoding="utf-8"))
    return {"keep": tuple(data["keep"]), "provider": tuple(data["provider"])}


@cache
def base_vocabulary() -> frozenset[str]:
    """Words never pseudonymised: the analyzer's own code and data, public domains, vocabulary.yaml."""
    words: set[str] = set()
    for path in sorted(_PACKAGE.rglob("*")):
        if path.suffix in (".py", ".yaml", ".yml", ".json", ".txt") and path.is_file():
            words.update(w.lower() for w in _LETTERS.findall(path.read_text(encoding="utf-8", errors="replace")))
    domains = _domains()
    for domain in (*domains["keep"], *domains["provider"]):
        words.update(w.lower() for w in _LETTERS.findall(domain))
    vocab = load_yaml(Path(__file__).with_name("vocabulary.yaml").read_text(encoding="utf-8"))
    for group in vocab.values():
        words.update(str(w).lower() for w in group)
    return frozenset(words)


@cache
def component_vocabulary() -> frozenset[str]:
    """Words of the component catalogue and distribution fingerprints (what names components)."""
    words: set[str] = set()
    for folder in ("distributions", "findings"):
        for path in sorted((_PACKAGE / folder).rglob("*.yaml")):
            words.update(w.lower() for w in _LETTERS.findall(path.read_text(encoding="utf-8", errors="replace")))
    return frozenset(words)


@cache
def domain_class(host: str) -> tuple[str, int]:
    """("keep" | "provider" | "other", number of trailing labels to keep) for a hostname."""
    host = host.lower().rstrip(".")
    best = ("other", 1)
    best_len = 0
    for cls in ("keep", "provider"):
        for suffix in _domains()[cls]:
            if (host == suffix or host.endswith("." + suffix)) and len(suffix) > best_len:
                best, best_len = (cls, suffix.count(".") + 1), len(suffix)
    return best


class Learner:
    """Collects identifying words (by category) and whole ids (UUIDs) from texts and objects."""

    def __init__(self, pseudonyms: Pseudonyms, names: bool = False, structural: frozenset[str] = frozenset()) -> None:
        self.pseudonyms = pseudonyms
        self.names = names
        # the dump's field names and kinds: a name made of one of them is never replaced whole
        self.structural = structural
        self.words: dict[str, str] = {}  # lowercased word -> category
        self.terms: dict[str, str] = {}  # whole id (UUID) -> category

    def learn_name(self, name: str, category: str) -> None:
        """Learn the identifying words of a name (its known words, short words and IPs stay)."""
        if not name or is_already_redacted(name):
            return
        name = IPV4.sub(" ", name)
        for word in _WORD.findall(name):
            if self.pseudonyms.word(word) != word:
                self.words.setdefault(word.lower(), category)

    def learn_term(self, value: str, category: str, known_too: bool = False) -> None:
        """Learn a whole id (account, subscription, cluster or group name): replaced as one string,
        every word of it, wherever it appears. A single known word ("kubernetes", the default
        cluster name) is no id: replacing it everywhere would rewrite the dump's own vocabulary."""
        if len(value) < 3 or is_already_redacted(value):
            return  # one or two letters are everywhere (and in every escape sequence)
        words = _WORD.findall(value)
        if not words or any(w.lower() in self.structural for w in words if len(words) == 1):
            return
        if len(words) == 1 and not known_too and self.pseudonyms.word(words[0]) == words[0] and not _UUID.match(value):
            return
        self.terms.setdefault(value.lower(), category)

    def learn_host(self, host: str, category: str = "hostname") -> None:
        """Learn a hostname's identifying labels: none for public domains, left of a cloud suffix."""
        cls, keep = domain_class(host)
        if cls == "keep":
            return
        labels = host.rstrip(".").split(".")
        for label in labels[: max(len(labels) - keep, 0)]:
            self.learn_name(label, category)

    def learn_text(self, text: str) -> None:
        """Learn from raw text: ids in known places, and every hostname."""
        low = text.lower()
        for category, needles, rx in LEARNED_IDS:
            if not any(n in low for n in needles):
                continue
            for m in rx.finditer(text):
                value = m.group("id")
                if category == "aws-account" and value in AWS_PUBLIC_ACCOUNTS:
                    continue
                managed = _AKS_NODE_GROUP.match(value)
                if managed:  # MC_<rg>_<cluster>_<region>: the shape stays, the names go
                    self.learn_term(managed.group("group"), "azure-resource-group")
                    self.learn_term(managed.group("cluster"), "cluster-name")
                elif category == "cluster-name" and "_" in value:  # <rg>_<cluster> from MC_ labels
                    group, _, cluster = value.rpartition("_")
                    self.learn_term(group, "azure-resource-group")
                    self.learn_term(cluster, category)
                else:
                    self.learn_term(value, category)
        for host in {m.group("host") for m in HOSTNAME.finditer(text)}:
            self.learn_host(host)
        if "@" in text:
            for m in EMAIL.finditer(text):
                if domain_class(m.group("domain"))[0] != "keep":
                    self.learn_term(m.group("local"), "email", known_too=True)
                    self.learn_host(m.group("domain"), "email")

    def learn_objects(self, result: IngestResult) -> None:
        """Learn node and host names (and, with names=True, namespace and object names)."""
        for obj in result.objects:
            view = obj.view
            if obj.kind == "Node":
                self.learn_name(obj.name, "node")
                status = getattr(view, "status", None)
                for address in getattr(status, "addresses", None) or ():
                    if getattr(address, "type", None) in ("Hostname", "InternalDNS", "ExternalDNS"):
                        self.learn_name(getattr(address, "address", "") or "", "node")
            elif obj.kind == "Pod":
                spec = getattr(view, "spec", None)
                node = getattr(spec, "nodeName", None)
                if node:
                    self.learn_name(node, "node")
            if self.names:
                self._learn_object_names(obj)

    def _learn_object_names(self, obj: Any) -> None:
        # Names are replaced whole wherever they appear (a pod's name carries its Deployment's);
        # a namespace is replaced even when it is a common word, since the user asked for it.
        if obj.kind == "Namespace":
            if not _SYSTEM_NAMESPACE.match(obj.name):
                self.learn_term(obj.name, "namespace", known_too=True)
            return
        if obj.namespace and not _SYSTEM_NAMESPACE.match(obj.namespace):
            self.learn_term(obj.namespace, "namespace", known_too=True)
            words = _WORD.findall(obj.name)
            # a name made only of words the analysis knows (metrics-server, cert-manager-webhook)
            # names a component, not a customer: the component catalogue must still find it
            if obj.kind not in ("Pod", "ReplicaSet", "Event", "EndpointSlice", "ControllerRevision", "Job") and not all(
                    w.lower() in component_vocabulary() or w.isdigit() for w in words):
                self.learn_term(obj.name, "object-name")


def dump_vocabulary(result: IngestResult) -> frozenset[str]:
    """The dump's own structural words: keys of every object, kinds and API versions."""
    words: set[str] = set()
    seen_keys: set[str] = set()
    for obj in result.objects:
        words.update(w.lower() for w in _LETTERS.findall(obj.kind))
        words.update(w.lower() for w in _LETTERS.findall(obj.api_version))
        _collect_keys(obj.body(), seen_keys, 0)
    for key in seen_keys:
        words.update(w.lower() for w in _LETTERS.findall(key))
    return frozenset(words)


def _collect_keys(value: Any, out: set[str], depth: int) -> None:
    if depth > 64:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and "/" not in k and "." not in k:
                # plain field names; label and annotation keys (with / or .) say who wrote them
                out.add(k)
            _collect_keys(v, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _collect_keys(v, out, depth + 1)
