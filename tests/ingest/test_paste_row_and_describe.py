"""A paste without prompts holding a `kubectl get pods` row and a `describe pod` of the same pod
(no namespace on the row, one in the describe): one object, as in a transcript, the second
sighting counted as a duplicate; never where the paste shows that name in two namespaces."""

from __future__ import annotations

from analyzer.ingest import ingest_text

# kelseyhightower/kubernetes-docker-files#4 (RobinsChens' comment, 2016-08-13, trimmed): the
# row, then one zsh prompt with the describe (one command: read as one paste, not a transcript)
_KH_4 = "\n".join([
    "NAME                     READY     STATUS    RESTARTS   AGE",
    "nginx-3137573019-g1rt2   0/1       Pending   0          16h",
    "➜  kubernetes-docker-files git:(master) kubectl describe pod nginx-3137573019-g1rt2",
    "Name:\t\tnginx-3137573019-g1rt2",
    "Namespace:\tdefault",
    "Node:\t\t/",
    "Labels:\t\tpod-template-hash=3137573019",
    "\t\trun=nginx",
    "Status:\t\tPending",
    "IP:\t\t",
    "Controllers:\tReplicaSet/nginx-3137573019",
    "Containers:",
    "  nginx:",
    "    Image:\t\t\tnginx",
    "    Port:\t\t\t",
    "Conditions:",
    "  Type\t\tStatus",
    "  PodScheduled \tFalse ",
    "",
])

# googlecodelabs/feedback#164 (trimmed): the rows list ...-tt9ng, the describe is of ...-zs1pm,
# another pod of the ReplicaSet: two pods, kept apart
_CODELAB_164 = "\n".join([
    "NAME                             READY     STATUS              RESTARTS   AGE",
    "busybox                          1/1       Running             0          46m",
    "slack-codelab-2013566803-tt9ng   0/1       ContainerCreating   0          14m",
    "",
    "Name:           slack-codelab-2013566803-zs1pm",
    "Namespace:      default",
    "Node:           gke-my-cluster-default-pool-f878fd4a-8lp9/10.128.0.3",
    "Start Time:     Tue, 28 Feb 2017 10:55:13 -0600",
    "Status:         Pending",
    "",
])


def _pods(text: str) -> list[str]:
    r = ingest_text(text, "ticket.txt")
    assert r.accounting_holds()
    return sorted(o.key.id for o in r.objects if o.kind == "Pod")


def test_a_row_and_the_describe_of_its_pod_are_one_object() -> None:
    r = ingest_text(_KH_4, "ticket.txt")
    assert r.accounting_holds()
    [pod] = [o for o in r.objects if o.kind == "Pod"]
    assert pod.key.id == "core/Pod/default/nginx-3137573019-g1rt2"
    assert pod.provenance.format == "describe"
    assert pod.duplicates == 1
    assert (r.objects_read, r.duplicates) == (2, 1)  # the row: a duplicate, not lost


def test_the_describe_before_the_row_makes_one_object_too() -> None:
    lines = _KH_4.split("\n")
    swapped = "\n".join(lines[3:] + lines[:2]) + "\n"
    assert _pods(swapped) == ["core/Pod/default/nginx-3137573019-g1rt2"]


def test_a_describe_of_another_pod_leaves_the_rows_alone() -> None:
    assert _pods(_CODELAB_164) == ["core/Pod//busybox", "core/Pod//slack-codelab-2013566803-tt9ng",
                                   "core/Pod/default/slack-codelab-2013566803-zs1pm"]


def test_a_name_the_paste_shows_in_two_namespaces_is_not_matched() -> None:
    # (the describe copied into a second namespace for the test): the row may be either pod
    describe = _KH_4.split("\n")[3:]
    other = [line.replace("Namespace:\tdefault", "Namespace:\tweb") for line in describe]
    text = "\n".join(_KH_4.split("\n")[:2] + describe + other) + "\n"
    assert _pods(text) == ["core/Pod//nginx-3137573019-g1rt2", "core/Pod/default/nginx-3137573019-g1rt2",
                           "core/Pod/web/nginx-3137573019-g1rt2"]


def test_the_other_rows_of_a_get_without_namespace_are_where_the_describe_puts_one() -> None:
    # the same paste under its `kubectl get pods` (no prompt; the describe's line taken off: one
    # command, a paste), a second row and the describe's namespace written for the test: one
    # listing lists one namespace, the describe's
    lines = _KH_4.replace("Namespace:\tdefault", "Namespace:\tweb").split("\n")
    text = "\n".join(["kubectl get pods", *lines[:2],
                      "busybox                  1/1       Running   0          46m", *lines[3:]])
    r = ingest_text(text, "ticket.txt")
    assert [f.format for f in r.files] == ["kubectl-text"]
    assert r.accounting_holds()
    pods = {o.key.id: o for o in r.objects if o.kind == "Pod"}
    assert sorted(pods) == ["core/Pod/web/busybox", "core/Pod/web/nginx-3137573019-g1rt2"]
    assert any("the namespace this paste shows other rows of its listing in" in n
               for n in pods["core/Pod/web/busybox"].notes)


# Trimmed from a ka0s deployment report (Ka0s-Klaus/ka0s audit/deploy/, the openclaw run of
# 2026-03-19 11:27 UTC, read through the code index by its text): the pods' `get -o wide` rows,
# then under the script's `--- Description for POD ---` the pod's describe from its Node-Selectors
# on, its Events naming it (`assigned openclaw/openclaw-0`). Before: the excerpt's kind was not
# told (no QoS Class, no Containers in it), "describe without a Name: its kind could not be told;
# nothing read", its Liveness and BackOff events lost. Read as the pod's, it must not unknow what
# the row stated before where it begins (CrashLoopBackOff, 5 restarts).
_KA0S_OPENCLAW = """>>> Pods Status:
NAME         READY   STATUS             RESTARTS        AGE     IP              NODE         NOMINATED NODE   READINESS GATES
openclaw-0   0/1     CrashLoopBackOff   5 (2m27s ago)   7m48s   172.16.209.15   k8-node-20   <none>           <none>

WARNING: The following pods are not ready (yet):
openclaw-0 CrashLoopBackOff
--- Description for openclaw-0 ---
Node-Selectors:              <none>
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type     Reason     Age                     From               Message
  ----     ------     ----                    ----               -------
  Normal   Scheduled  7m48s                   default-scheduler  Successfully assigned openclaw/openclaw-0 to k8-node-20
  Warning  Unhealthy  4m27s (x2 over 7m7s)    kubelet            Liveness probe failed: dial tcp 172.16.209.15:18789: connect: connection refused
  Warning  BackOff    3m56s (x9 over 6m29s)   kubelet            Back-off restarting failed container openclaw in pod openclaw-0_openclaw(8c24becd-281c-41bb-b861-7dcf293808f3)
--- Logs for openclaw-0 (Current) ---
"""


def test_a_describe_excerpt_from_its_middle_is_laid_over_its_pods_row() -> None:
    r = ingest_text(_KA0S_OPENCLAW, "report.md")
    assert r.accounting_holds()
    [pod] = [o for o in r.objects if o.kind == "Pod"]
    assert pod.key.id == "core/Pod/openclaw/openclaw-0"
    assert pod.body()["spec"]["tolerations"]
    facts = pod.body()["x-kda-text"]
    assert (facts["status"], facts["restarts"], facts["begins_at"]) == ("CrashLoopBackOff", 5, "Node-Selectors")
    assert any("begins at its section 'Node-Selectors'" in n for n in pod.notes)
    reasons = sorted(o.body()["reason"] for o in r.objects if o.kind == "Event")
    assert reasons == ["BackOff", "Scheduled", "Unhealthy"]
    assert not [x for x in r.rejections if x.location == "line 7"]
    # the script's `WARNING: The following pods are not ready (yet):` is its prose, skipped as
    # such, not "describe without a Name: its kind could not be told"
    assert not r.rejections
    assert any(x.location == "lines 5-7" and "prose" in x.reason for x in r.skipped)


# A ka0s deployment report (Ka0s-Klaus/ka0s audit/deploy/deployment-report-cloudbeaver-22593033290.md
# @ ffe7f402, trimmed): its header states the namespace (`Namespace: cloudbeaver`), its listings
# follow without -n and without their commands. Before: the pod, the service and the ingress kept
# no namespace ("namespace not stated by the dump"), so the ingress's service and the service's
# pods were in no namespace.
_KA0S_CLOUDBEAVER = """Deployment Report: core/b2b/core-services/cloudbeaver
Date: Mon Mar  2 19:53:45 UTC 2026
Trigger: push by santakloud
Namespace: cloudbeaver
---------------------------------------------------
>>> Pods Status:
NAME                           READY   STATUS    RESTARTS   AGE   IP              NODE         NOMINATED NODE   READINESS GATES
cloudbeaver-67b5b5d678-nbtpt   0/1     Running   0          60s   172.16.209.19   k8-node-20   <none>           <none>

>>> Services Status:
NAME          TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
cloudbeaver   ClusterIP   10.105.40.153   <none>        80/TCP    61s

>>> Ingress Status:
NAME                  CLASS   HOSTS              ADDRESS         PORTS     AGE
cloudbeaver-ingress   nginx   db-admin.ka0s.io   192.168.1.250   80, 443   60s
---------------------------------------------------
"""


def test_a_reports_header_namespace_is_its_listings() -> None:
    r = ingest_text(_KA0S_CLOUDBEAVER, "report.md")
    assert r.accounting_holds()
    assert sorted(o.key.id for o in r.objects) == [
        "core/Pod/cloudbeaver/cloudbeaver-67b5b5d678-nbtpt", "core/Service/cloudbeaver/cloudbeaver",
        "networking.k8s.io/Ingress/cloudbeaver/cloudbeaver-ingress"]
    assert all("the namespace the report's header states (Namespace: cloudbeaver)" in " ".join(o.notes)
               for o in r.objects)


def test_a_describes_namespace_line_is_no_reports_header() -> None:
    # the same listings under a describe of another pod: its Namespace line is the describe's,
    # not a header for the rows
    text = _KA0S_CLOUDBEAVER.replace("Namespace: cloudbeaver\n", "") + (
        "Name:         web-1\nNamespace:    shop\nStatus:       Running\n")
    r = ingest_text(text, "report.md")
    assert "core/Service//cloudbeaver" in {o.key.id for o in r.objects}
