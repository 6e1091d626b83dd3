"""Score fingerprints against a dump's observations and name its distribution, with the evidence.

Each matched fingerprint row is a hit. A distribution's score is the sum, over its signal types
and the kinds of object they were seen on, of the best weight matched: a signal type counts once
per object kind, so a thousand nodes with the same label do not outweigh one decisive signal.
False friends are handled here, from profiles.yaml: a distribution built on another (kind on
kubeadm) counts its base's hits as support; visible control-plane pods contradict a managed
distribution (kubeadm or RKE2 on AWS carry `aws://` provider IDs but are not EKS); nodes of a
virtual cluster show their host, so the API server's own version decides when they disagree.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.distributions.fingerprints import Fingerprint, load_fingerprints
from analyzer.distributions.objects import builtin_objects
from analyzer.distributions.observations import (
    SERVER_VERSION_KIND,
    Observation,
    Observations,
    observe,
)
from analyzer.distributions.profiles import Profiles, load_profiles
from analyzer.distributions.result import Distribution, Evidence, NodeVerdict, RunnerUp
from analyzer.distributions.signals import RegexMatcher, any_matcher
from analyzer.distributions.workloads import is_static_pod

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

# Below this score nothing is convincing: the answer is `unknown`. A single hint of weight 3 (a
# kind-style node name, a static kube-apiserver pod in a pasted table) names a candidate, with a
# confidence of about 0.3 that says how little it rests on; weights 1-2 never do on their own.
MIN_SCORE = 3.0
# A distribution built on another takes its base's hits as support only when its own evidence is
# this strong (something only it writes), so a kind-style node name on a kubeadm cluster stays a hint.
SUPPORT_SCORE = 6.0
# A node counts towards `mixed` only when its own evidence is this strong (a decisive signal).
MIXED_NODE_SCORE = 8.0
# What visible control-plane pods take off a managed distribution's score.
CONTRADICTION_WEIGHT = 10.0
# How sure `vanilla` is: it rests on the absence of every mark, which a partial dump can fake.
VANILLA_CONFIDENCE = 0.5
# Score at which confidence reaches about 70% before the margin over the runner-up is applied.
CONFIDENCE_SCALE = 8.0


@dataclass(frozen=True, slots=True)
class Hit:
    """A fingerprint row that matched one observation."""

    fingerprint: Fingerprint
    observation: Observation


@dataclass(slots=True)
class Tally:
    """One distribution's score and the evidence that made it."""

    score: float = 0.0
    evidence: list[Evidence] = field(default_factory=list)


def match(fingerprints: Iterable[Fingerprint], observations: Observations) -> list[Hit]:
    """Every (fingerprint, observation) pair that matches, fingerprints in file order."""
    # Each distinct value is matched once per fingerprint, however many nodes or pods show it;
    # only a matched value's sightings are made into observations.
    matched: dict[tuple[str, str], list[Observation]] = {}
    hits: list[Hit] = []
    fingerprints = list(fingerprints)
    candidates = _regex_candidates(fingerprints, observations)
    for fp in fingerprints:
        values = observations.values(fp.channel)
        # (a regex's own method where the matcher is one: truthy exactly where it matches)
        if isinstance(fp.matches, RegexMatcher):
            test = fp.matches.test
            values = candidates.get((fp.channel, test.__name__), values)
        else:
            test = fp.matches
        for value in sorted(filter(test, values)):
            found = matched.get((fp.channel, value))
            if found is None:
                found = matched[(fp.channel, value)] = sorted(
                    observations.observations(fp.channel, value), key=lambda o: (o.kind, o.node or ""))
            hits.extend(Hit(fp, ob) for ob in found)
    return hits


def _regex_candidates(fingerprints: list[Fingerprint], observations: Observations
                      ) -> dict[tuple[str, str], list[str]]:
    """(channel, regex method) -> the values of the channel that one of its regex fingerprints
    matches: each fingerprint then tests only those (a value no pattern matches is rejected once,
    not once per pattern). Where the patterns cannot be joined, the key is absent (all values)."""
    groups: dict[tuple[str, str], list[RegexMatcher]] = defaultdict(list)
    for fp in fingerprints:
        if isinstance(fp.matches, RegexMatcher):
            groups[(fp.channel, fp.matches.test.__name__)].append(fp.matches)
    out: dict[tuple[str, str], list[str]] = {}
    for (channel, method), matchers in groups.items():
        test = any_matcher(matchers) if len(matchers) > 1 else None
        if test is not None:
            out[(channel, method)] = list(filter(test, observations.values(channel)))
    return out


def _evidence(hits: list[Hit], counted: bool) -> Evidence:
    """One evidence row for the hits of one fingerprint: its first object, and how many there were."""
    fp = hits[0].fingerprint
    first = min(hits, key=lambda h: min(h.observation.objects))
    value = first.observation.value
    objects = {o for h in hits for o in h.observation.objects}
    return Evidence(
        signal=fp.signal, object=min(first.observation.objects),
        value=value if len(value) <= 200 else value[:197] + "...",
        weight=fp.weight, distribution=fp.distribution, note=fp.note, count=len(objects), counted=counted,
    )


def tally(hits: Iterable[Hit]) -> dict[str, Tally]:
    """Score per distribution: the best weight per (signal type, object kind), summed.

    Every fingerprint row that matched is evidence; only the best of its group counts. A row of
    negative weight (something the distribution never shows) counts against it on its own: the
    strongest such row per group, never below a score of 0.
    """
    groups: dict[tuple[str, str, str, bool], dict[int, list[Hit]]] = defaultdict(lambda: defaultdict(list))
    for hit in hits:
        fp = hit.fingerprint
        groups[(fp.distribution, fp.signal, hit.observation.kind, fp.weight < 0)][fp.index].append(hit)
    out: dict[str, Tally] = defaultdict(Tally)
    for (dist, _signal, _kind, _against), by_row in sorted(groups.items()):
        rows = sorted(by_row.values(), key=lambda hs: (-abs(hs[0].fingerprint.weight), hs[0].fingerprint.index))
        out[dist].score += rows[0][0].fingerprint.weight
        out[dist].evidence.extend(_evidence(hs, counted=i == 0) for i, hs in enumerate(rows))
    for t in out.values():
        t.score = max(0.0, t.score)
        t.evidence.sort(key=lambda e: (not e.counted, -e.weight, e.signal, e.object))
    return dict(out)


def _confidence(score: float, rival: float) -> float:
    strength = 1.0 - math.exp(-score / CONFIDENCE_SCALE)
    margin = (score - rival) / score if score > 0 else 0.0
    return round(strength * (0.5 + 0.5 * margin), 2)


@dataclass(slots=True)
class Ranking:
    """Candidates ordered best first, each with its combined score and evidence."""

    order: list[str]
    tallies: dict[str, Tally]

    def rival_of(self, name: str, profiles: Profiles) -> tuple[str, float] | None:
        """The best candidate that is a real alternative (not the winner's base)."""
        base = profiles.distributions[name].based_on if name in profiles.distributions else None
        for other in self.order:
            if other not in (name, base) and self.tallies[other].score > 0:
                return other, self.tallies[other].score
        return None


def rank(tallies: dict[str, Tally], profiles: Profiles, contradicted: list[Evidence]) -> Ranking:
    """Combine base support and contradictions into final scores and order the candidates."""
    combined: dict[str, Tally] = {}
    for name, t in tallies.items():
        combined[name] = Tally(t.score, list(t.evidence))
    for name, t in tallies.items():
        base = profiles.distributions[name].based_on
        # A derived distribution with its own convincing evidence takes its base's hits as support.
        if base and t.score >= SUPPORT_SCORE and base in tallies:
            combined[name].score += tallies[base].score
            combined[name].evidence.extend(tallies[base].evidence)
    for ev in contradicted:
        if ev.distribution in combined:
            combined[ev.distribution].score = max(0.0, combined[ev.distribution].score + ev.weight)
            combined[ev.distribution].evidence.append(ev)

    def order_key(name: str) -> tuple[float, int, str]:
        # Ties go to the more specific distribution (kind over kubeadm), then by name.
        derived = 0 if profiles.distributions[name].based_on else 1
        return (-combined[name].score, derived, name)

    return Ranking(sorted(combined, key=order_key), combined)


def _node_verdicts(hits: list[Hit], profiles: Profiles) -> dict[str, NodeVerdict]:
    """What each node's own evidence says (a pod's nodeName speaks for its node too)."""
    by_node: dict[str, list[Hit]] = defaultdict(list)
    for hit in hits:
        if hit.observation.node:
            by_node[hit.observation.node].append(hit)
    out: dict[str, NodeVerdict] = {}
    for node, node_hits in sorted(by_node.items()):
        ranking = rank(tally(node_hits), profiles, [])
        best = ranking.order[0]
        t = ranking.tallies[best]
        if t.score < MIN_SCORE:
            out[node] = NodeVerdict("unknown", 0.0, t.evidence, t.score)
            continue
        rival = ranking.rival_of(best, profiles)
        out[node] = NodeVerdict(best, _confidence(t.score, rival[1] if rival else 0.0), t.evidence, t.score)
    return out


def _mixed_families(per_node: dict[str, NodeVerdict], profiles: Profiles) -> dict[str, list[str]]:
    """Distribution family -> nodes decisively of it (more than one family means `mixed`)."""
    families: dict[str, list[str]] = defaultdict(list)
    for node, verdict in sorted(per_node.items()):
        if verdict.name != "unknown" and verdict.score >= MIXED_NODE_SCORE:
            families[profiles.family(verdict.name)].append(node)
    return dict(families)


def _object_families(hits: list[Hit], profiles: Profiles) -> dict[str, list[Evidence]]:
    """Distribution family -> the evidence of objects on no node (namespaces, service accounts,
    API groups, system workloads) when one of its rows is decisive (MIXED_NODE_SCORE or more)."""
    loose = [h for h in hits if not h.observation.node and h.observation.kind != SERVER_VERSION_KIND]
    out: dict[str, list[Evidence]] = {}
    for name, t in tally(loose).items():
        if any(e.weight >= MIXED_NODE_SCORE for e in t.evidence):
            out.setdefault(profiles.family(name), []).extend(t.evidence)
    return out


def _control_plane_contradictions(cluster: ModeledDump, profiles: Profiles) -> list[Evidence]:
    """Negative evidence against managed distributions: control-plane pods are visible."""
    pods = sorted(o.key.id for o in builtin_objects(cluster, "Pod")
                  if o.namespace == "kube-system" and profiles.control_plane_pods.search(o.name)
                  and is_static_pod(o))
    return _against_managed(profiles, "control_plane_pods_visible", pods,
                            "static control-plane pods are visible, so the control plane is not managed")


def _control_plane_node_contradictions(cluster: ModeledDump, profiles: Profiles) -> list[Evidence]:
    """Negative evidence against managed distributions: a control-plane node is registered."""
    nodes = sorted(o.key.id for o in builtin_objects(cluster, "Node")
                   if profiles.shows_control_plane(o.view.metadata.labels or {},
                                                   o.view.text.roles if o.view.text is not None else None))
    return _against_managed(profiles, "control_plane_node_registered", nodes,
                            "a control-plane node is registered, so the control plane is not managed")


def _against_managed(profiles: Profiles, signal: str, seen: list[str], note: str) -> list[Evidence]:
    """One contradiction per managed distribution, quoting the first of the objects seen."""
    if not seen:
        return []
    return [
        Evidence(signal=signal, object=seen[0], value=seen[0].rsplit("/", 1)[-1],
                 weight=-CONTRADICTION_WEIGHT, distribution=name, note=note, count=len(seen))
        for name, p in sorted(profiles.distributions.items()) if p.control_plane == "managed"
    ]


def _plain_upstream(cluster: ModeledDump, hits: list[Hit], virtual: set[str]) -> list[Evidence] | None:
    """Evidence for `vanilla`: full node objects and kube-system pods, and no mark of any distribution.

    Only a dump that shows enough can say "nothing special": API-read nodes (labels and
    annotations complete) and the kube-system pods; a fragment stays `unknown`.
    """
    if hits or virtual:
        return None
    nodes = sorted(o.key.id for o in builtin_objects(cluster, "Node")
                   if o.view.text is None and o.view.status.nodeInfo is not None)
    system_pods = sorted(o.key.id for o in builtin_objects(cluster, "Pod") if o.namespace == "kube-system")
    if not nodes or not system_pods:
        return None
    return [
        Evidence(signal="no_distribution_marks", object=nodes[0], weight=0.0, distribution="vanilla",
                 value="no provider ID, distribution label, annotation or version suffix on any node",
                 note="upstream binaries installed without a distribution", count=len(nodes)),
        Evidence(signal="no_distribution_workloads", object=system_pods[0], weight=0.0,
                 distribution="vanilla", value="no distribution-specific kube-system workload",
                 note="kube-system holds only generic add-ons", count=len(system_pods)),
    ]


def _with_their_base(hits: list[Hit], profiles: Profiles) -> list[Hit]:
    """The hits, less those of `with_base` rows whose distribution's base left no mark of its own
    (MicroShift's snapshot controller in kube-system says MicroShift only beside OpenShift's marks)."""
    if not any(h.fingerprint.with_base for h in hits):
        return hits
    marked = {h.fingerprint.distribution for h in hits if h.fingerprint.weight > 0 and not h.fingerprint.with_base}
    return [h for h in hits if not h.fingerprint.with_base
            or profiles.distributions[h.fingerprint.distribution].based_on in marked]


def detect(cluster: ModeledDump, fingerprints: Iterable[Fingerprint] | None = None) -> Distribution:
    """Name the cluster's distribution from its fingerprints, with evidence, runner-up and per-node verdicts."""
    profiles = load_profiles()
    obs = observe(cluster, profiles)
    rows = tuple(load_fingerprints() if fingerprints is None else fingerprints)
    hits = _with_their_base([h for h in match(rows, obs) if h.observation.node not in obs.virtual_nodes], profiles)
    notes: list[str] = []
    if obs.virtual_nodes:
        notes.append(f"{len(obs.virtual_nodes)} placeholder node(s) of a virtual cluster (vcluster) ignored")

    per_node = _node_verdicts(hits, profiles)
    families = _mixed_families(per_node, profiles)
    cluster_hits = hits
    server = [h for h in hits if h.observation.kind == SERVER_VERSION_KIND]
    if server:
        server_family = profiles.family(rank(tally(server), profiles, []).order[0])
        node_families = set(families)
        if node_families and server_family not in node_families:
            # The API server is one distribution and the nodes another: a virtual cluster whose
            # synced nodes show their host. The API server is the cluster we are looking at.
            notes.append(f"nodes look like {', '.join(sorted(node_families))} but the API server is "
                         f"{server_family}: node evidence taken as the host's (virtual cluster)")
            cluster_hits = [h for h in hits if not h.observation.node]
            families = {}

    contradictions = _control_plane_contradictions(cluster, profiles) or _control_plane_node_contradictions(
        cluster, profiles)
    ranking = rank(tally(cluster_hits), profiles, contradictions)
    scores = {n: round(ranking.tallies[n].score, 2) for n in ranking.order if ranking.tallies[n].score > 0}

    # Objects decisively of a family none of the nodes is of (OpenShift namespaces pasted beside
    # GKE nodes): a second cluster, as surely as nodes of two families are.
    others = {fam: ev for fam, ev in _object_families(cluster_hits, profiles).items()
              if fam not in families} if families else {}
    if len(families) > 1 or others:
        # Nodes (or objects) of several clusters in one input: say so, with each node's verdict.
        # Each family's strongest row first, so a short listing names every distribution present.
        by_family = [per_node[families[fam][0]].evidence for fam in sorted(families)]
        by_family += [others[fam] for fam in sorted(others)]
        evidence = [r[0] for r in by_family if r] + [e for r in by_family for e in r[1:]]
        confs = [per_node[n].confidence for nodes in families.values() for n in nodes]
        confs += [_confidence(sum(e.weight for e in ev if e.counted), 0.0) for ev in others.values()]
        if len(families) > 1:
            notes.append("nodes of several distributions: " + "; ".join(
                f"{fam}: {', '.join(nodes)}" for fam, nodes in sorted(families.items())))
        if others:
            notes.append("objects of two or more clusters: " + "; ".join(
                [f"{fam}: nodes {', '.join(nodes)}" for fam, nodes in sorted(families.items())]
                + [f"{fam}: {', '.join(sorted({e.object for e in ev if e.weight >= MIXED_NODE_SCORE}))}"
                   for fam, ev in sorted(others.items())]))
        top = ranking.order[0]
        return Distribution(
            name="mixed", confidence=round(sum(confs) / len(confs), 2), evidence=evidence,
            runner_up=RunnerUp.of(top, scores.get(top, 0.0), ranking.tallies[top].evidence), scores=scores, per_node=per_node,
            notes=notes,
        )

    if not ranking.order or ranking.tallies[ranking.order[0]].score < MIN_SCORE:
        # "No mark of any distribution" means something only when there are marks to look for.
        plain = _plain_upstream(cluster, hits, obs.virtual_nodes) if rows else None
        if plain is not None:
            return Distribution(name="vanilla", confidence=VANILLA_CONFIDENCE, evidence=plain,
                                scores=scores, per_node=per_node, notes=notes)
        best = ranking.order[0] if ranking.order else None
        evidence = ranking.tallies[best].evidence if best else []
        return Distribution(
            name="unknown", confidence=0.0, evidence=evidence,
            runner_up=RunnerUp.of(best, scores[best], evidence) if best and scores.get(best) else None,
            scores=scores, per_node=per_node, notes=notes,
        )

    winner = ranking.order[0]
    score = ranking.tallies[winner].score
    rival = ranking.rival_of(winner, profiles)
    evidence = sorted(ranking.tallies[winner].evidence,
                      key=lambda e: (e.distribution != winner, not e.counted, -e.weight, e.signal, e.object))
    return Distribution(
        name=winner, confidence=_confidence(score, rival[1] if rival else 0.0), evidence=evidence,
        runner_up=RunnerUp.of(rival[0], round(rival[1], 2), ranking.tallies[rival[0]].evidence) if rival else None, scores=scores,
        per_node=per_node, notes=notes,
    )
