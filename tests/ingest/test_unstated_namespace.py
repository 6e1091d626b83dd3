"""Rows a `kubectl get` shown without -n listed, where nothing in the paste states their
namespace: in kubectl's default namespace, said in a note (they were "-/name" in findings)."""

from __future__ import annotations

import analyzer
from analyzer.ingest import ingest_text

# Azure/AKS#491 (trimmed): `kubectl get pods` without -n, no describe of its pods.
_AKS_491 = "\n".join([
    "```bash",
    "$ kubectl get nodes",
    "NAME                       STATUS     ROLES     AGE       VERSION",
    "aks-nodepool1-79365606-0   NotReady   agent     4d        v1.9.6",
    "$ kubectl get pods",
    "NAME                                                     READY     STATUS      RESTARTS   AGE",
    "alertmanager-kube-prometheus-0                           2/2       Running     0          4d",
    "kube-prometheus-grafana-7bcb88ff5f-fsghm                 2/2       Running     0          4d",
    "```", "",
])


# an OKE write-up's `kubectl get po` (the rows of tests/distributions/test_more_distributions.py)
_OKE_KUBE_SYSTEM = ("$ kubectl get po\n"
                    "NAME                                  READY   STATUS    RESTARTS   AGE\n"
                    "coredns-58975fffdb-f6x8f              1/1     Running   0          13s\n"
                    "kube-proxy-bxb2r                      1/1     Running   0          10m\n"
                    "proxymux-client-rhn65                 1/1     Running   0          10m\n"
                    "vcn-native-ip-cni-5tpzp               2/2     Running   0          10m\n")


def test_pods_listed_by_a_get_without_namespace_are_in_the_default_namespace_said_so() -> None:
    r = ingest_text(_AKS_491, "issue.md")
    assert r.accounting_holds()
    pods = sorted((o for o in r.objects if o.kind == "Pod"), key=lambda o: o.name)
    assert [o.key.id for o in pods] == ["core/Pod/default/alertmanager-kube-prometheus-0",
                                        "core/Pod/default/kube-prometheus-grafana-7bcb88ff5f-fsghm"]
    assert all(any(n.startswith("namespace not stated: default assumed") for n in o.notes) for o in pods)
    assert not any(n == "namespace not stated by the dump" for o in pods for n in o.notes)
    [node] = [o for o in r.objects if o.kind == "Node"]
    assert node.namespace == ""  # a cluster-scoped kind keeps none


def test_a_get_under_a_namespace_switch_that_names_none_assumes_nothing() -> None:
    # the same rows after `kubectx prod`: the session's namespace is not kubectl's default, nor known
    r = ingest_text(_AKS_491.replace("$ kubectl get pods", "$ kubectx prod\n$ kubectl get pods"), "issue.md")
    assert {o.namespace for o in r.objects if o.kind == "Pod"} == {""}


def test_a_get_under_a_namespace_switch_is_in_the_namespace_it_names() -> None:
    # the same rows after `kubens monitoring`: listed in monitoring, said so
    r = ingest_text(_AKS_491.replace("$ kubectl get pods", "$ kubens monitoring\n$ kubectl get pods"), "issue.md")
    pods = [o for o in r.objects if o.kind == "Pod"]
    assert {o.namespace for o in pods} == {"monitoring"}
    assert all(any("since 'kubens monitoring'" in n for n in o.notes) for o in pods)
    [node] = [o for o in r.objects if o.kind == "Node"]
    assert node.namespace == ""


# IBM/ibm-spectrum-scale-bridge-for-grafana#78 (turn 1, trimmed): `oc project` says where the
# session is, then `oc get all` lists that project's pods without a NAMESPACE column.
_OC_PROJECT = """```console
[root@helper ~]# oc project openshift-marketplace
Now using project "openshift-marketplace" on server "https://api.ocp1.kvmlocal:6443".

[root@helper ~]# oc get all
NAME                                       READY   STATUS             RESTARTS       AGE
pod/certified-operators-g7xgr              0/1     ImagePullBackOff   0              165m
pod/marketplace-operator-68ddcd9c6-57m7v   1/1     Running            1 (158m ago)   169m

NAME                                   TYPE        CLUSTER-IP       EXTERNAL-IP   PORT(S)             AGE
service/certified-operators            ClusterIP   172.30.144.63    <none>        50051/TCP           165m
```
"""


def test_oc_project_puts_the_rows_after_it_in_its_project_and_is_no_rejected_output() -> None:
    r = ingest_text(_OC_PROJECT, "issue.md")
    assert r.accounting_holds()
    assert {(o.kind, o.namespace) for o in r.objects} == {("Pod", "openshift-marketplace"),
                                                          ("Service", "openshift-marketplace")}
    assert not r.input_rejections
    assert any("the session lists namespace openshift-marketplace" in s.reason for s in r.skipped)


def test_a_failed_oc_project_switches_to_nothing() -> None:
    failed = _OC_PROJECT.replace('Now using project "openshift-marketplace" on server "https://api.ocp1.kvmlocal:6443".',
                                 'error: A project named "openshift-marketplace" does not exist on server')
    r = ingest_text(failed, "issue.md")
    assert {o.namespace for o in r.objects} == {""}


def test_an_oc_listing_without_namespace_is_of_the_current_project_not_default() -> None:
    # tests/findings/cases/pod-not-ready.yaml's `oc get pods` paste: oc lists the current project
    paste = ("```\noc get pods\n"
             "NAME                        READY   STATUS    RESTARTS   AGE\n"
             "console-76c6c8468b-wpjwz    0/1     Running   3          12m\n"
             "downloads-8bddc6468-c5xbx   1/1     Running   0          9d\n```\n")
    r = ingest_text(paste, "issue.md")
    assert {o.namespace for o in r.objects} == {""}


def test_rows_pasted_without_their_command_assume_no_namespace() -> None:
    # Azure/AKS#615 (trimmed): the rows alone in a fence, no command line above them
    paste = ("```\n"
             " NAME                                             READY     STATUS              RESTARTS   AGE\n"
             "jenkins-85cc78bbc6-xckkg                         0/1       Init:0/1            0          11m\n"
             "jenkins-x-docker-registry-7b56b4f555-l6hcw       0/1       ContainerCreating   0          1h\n"
             "```\n")
    r = ingest_text(paste, "issue.md")
    assert r.objects and {o.namespace for o in r.objects} == {""}


# MicrosoftDocs/azure-docs articles/aks/gpu-cluster.md (April 2018 version, trimmed): a `describe
# node` lists the node's kube-system pods, then the job applied without -n and its pod.
_AKS_GPU_DOCS = """\
```
$ kubectl describe node aks-nodepool1-22139053-0
Name:               aks-nodepool1-22139053-0
Roles:              agent
Labels:             agentpool=nodepool1
                    kubernetes.azure.com/cluster=MC_myGPUCluster_myGPUCluster
Taints:             <none>
CreationTimestamp:  Thu, 05 Apr 2018 12:13:20 -0700
Conditions:
  Type                 Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----                 ------  -----------------                 ------------------                ------                       -------
  Ready                True    Thu, 05 Apr 2018 22:14:33 -0700   Thu, 05 Apr 2018 12:15:10 -0700   KubeletReady                 kubelet is posting ready status. AppArmor enabled
Non-terminated Pods:         (2 in total)
  Namespace                  Name                       CPU Requests  CPU Limits  Memory Requests  Memory Limits
  ---------                  ----                       ------------  ----------  ---------------  -------------
  kube-system                kube-proxy-pwffr           100m (1%)     0 (0%)      0 (0%)           0 (0%)
  kube-system                kube-svc-redirect-mkpf4    0 (0%)        0 (0%)      0 (0%)           0 (0%)
Events:         <none>
```

```
$ kubectl get jobs samples-tf-mnist-demo --watch
NAME                    DESIRED   SUCCESSFUL   AGE
samples-tf-mnist-demo   1         0            8s
samples-tf-mnist-demo   1         1            35s
```

```
$ kubectl get pods --selector app=samples-tf-mnist-demo --show-all
NAME                          READY     STATUS      RESTARTS   AGE
samples-tf-mnist-demo-smnr6   0/1       Completed   0          4m
```
"""


def test_the_pods_a_describe_node_lists_do_not_set_the_session_namespace() -> None:
    # before: the job and its pod were put in kube-system, "the session's namespace", from the
    # node's pod list
    r = ingest_text(_AKS_GPU_DOCS, "gpu-cluster.md")
    assert r.accounting_holds()
    found = {(o.kind, o.name): o.namespace for o in r.objects}
    assert found[("Job", "samples-tf-mnist-demo")] == "default"
    assert found[("Pod", "samples-tf-mnist-demo-smnr6")] == "default"
    assert found[("Pod", "kube-proxy-pwffr")] == "kube-system"


# chainguard-images/images#1090 (trimmed): `k get pods` without -n, then the Events section alone
# of `k describe pod` (no Namespace line).
_CHAINGUARD_1090 = """\
```
$ k get pods
NAME                                 READY   STATUS              RESTARTS   AGE
ebs-csi-node-mmv6p                   3/3     Running             0          45m
pod-destined-sawfly                  0/1     ContainerCreating   0          11m
```

```
$ k describe pod pod-destined-sawfly
...
Events:
  Type     Reason              Age                  From                     Message
  ----     ------              ----                 ----                     -------
  Normal   Scheduled           12m                  default-scheduler        Successfully assigned default/pod-destined-sawfly to ip-10-0-1-210.ec2.internal
  Warning  FailedAttachVolume  68s (x5 over 9m18s)  attachdetach-controller  AttachVolume.Attach failed for volume "pv" : volume attachment is being deleted
```
"""


def test_the_events_of_a_describe_without_namespace_go_with_their_pod() -> None:
    # before the events were moved too: the pod in default, its events on a namespaceless pod,
    # so its ContainerCreating came apart from the FailedAttachVolume that explains it
    r = ingest_text(_CHAINGUARD_1090, "pr.md")
    assert r.accounting_holds()
    events = [o for o in r.objects if o.kind == "Event"]
    assert events and {(o.namespace, o.raw["involvedObject"]["namespace"]) for o in events} == {("default", "default")}
    assert {o.namespace for o in r.objects if o.kind == "Pod"} == {"default"}


# istio/istio#23283 (trimmed): the Events alone of `kubectl describe pod` typed without -n, the
# scheduler's event naming istio-system, then `kubectl get po` without -n listing the same pod.
_ISTIO_23283 = """\
```
[root@master ~]# kubectl describe pod istio-ingressgateway-6cf56d9598-ptqp7
   .....
Events:
  Type     Reason     Age                   From               Message
  ----     ------     ----                  ----               -------
  Normal   Scheduled  <unknown>             default-scheduler  Successfully assigned istio-system/istio-ingressgateway-6cf56d9598-ptqp7 to node1.yr
  Normal   Started    21m                   kubelet, node1.yr  Started container istio-proxy
  Warning  Unhealthy  111s (x600 over 21m)  kubelet, node1.yr  Readiness probe failed: HTTP probe failed with statuscode: 503
```
```
[root@master ~]# kubectl get po
NAME                                    READY   STATUS    RESTARTS   AGE
istio-ingressgateway-6cf56d9598-ptqp7   0/1     Running   0          25m
istiod-c7757dcf7-2dpgn                  1/1     Running   0          25m
```
"""


def test_a_describe_without_namespace_takes_the_one_its_scheduled_event_states() -> None:
    # before: the events and both pods were put in default ("nothing in the paste states its
    # namespace"), though the scheduler's event says istio-system and the session lists that one
    r = ingest_text(_ISTIO_23283, "issue.md")
    assert r.accounting_holds()
    events = [o for o in r.objects if o.kind == "Event"]
    assert len(events) == 3
    assert {(o.namespace, o.raw["involvedObject"]["namespace"]) for o in events} == {("istio-system", "istio-system")}
    pods = {o.name: o for o in r.objects if o.kind == "Pod"}
    assert {o.namespace for o in pods.values()} == {"istio-system"}
    assert any("the session's namespace" in n for n in pods["istiod-c7757dcf7-2dpgn"].notes)


def test_a_get_without_namespace_listing_platform_components_is_of_kube_system_said_so() -> None:
    # the OKE write-up's kube-system rows of tests/distributions/test_more_distributions.py, under
    # a `kubectl get po` with no -n: a context set to kube-system listed them, not default (they
    # were left with no namespace before: findings named them bare, kube-system's rules missed them)
    r = ingest_text(_OKE_KUBE_SYSTEM, "oke.txt")
    assert r.accounting_holds()
    assert {o.namespace for o in r.objects} == {"kube-system"}
    assert all(any(n.startswith("namespace not stated: kube-system assumed, where the platform's own coredns")
                   for n in o.notes) for o in r.objects)


def test_a_listing_of_components_that_may_run_elsewhere_assumes_nothing() -> None:
    # flannel's DaemonSet runs in kube-flannel with today's manifest, in kube-system with older
    # ones; etcd-<node> in openshift-etcd on OpenShift: such a listing alone names no namespace
    paste = ("$ kubectl get pods\n"
             "NAME                    READY   STATUS             RESTARTS   AGE\n"
             "kube-flannel-ds-9ckl7   0/1     CrashLoopBackOff   19         60m\n"
             "kube-flannel-ds-g6gqj   0/1     CrashLoopBackOff   18         61m\n")
    r = ingest_text(paste, "issue.md")
    assert r.objects and {o.namespace for o in r.objects} == {""}


def test_a_listing_of_kube_system_components_and_others_puts_them_all_there() -> None:
    # one listing, one namespace: kubeadm's etcd (elsewhere on OpenShift) beside coredns
    paste = _OKE_KUBE_SYSTEM.replace("kube-proxy-bxb2r                 ", "etcd-oke-node-1                  ")
    r = ingest_text(paste, "oke.txt")
    assert {o.namespace for o in r.objects} == {"kube-system"}


def test_oc_new_project_switches_to_the_project_it_made() -> None:
    # a public OpenShift Local lab write-up ("Lab 15: OpenShift DaemonSet with Elevated
    # Privileges", text index id 18865504364): `oc new-project` prints "Now using project" and
    # advice; the `oc get pods` after it lists the new project (the pod row is made up here).
    paste = ('```bash\n$ oc new-project lab15-daemonset-ozil\n'
             'Now using project "lab15-daemonset-ozil" on server "https://api.crc.testing:6443".\n\n'
             "You can add applications to this project with the 'new-app' command. For example, try:\n\n"
             '$ oc get pods\n'
             'NAME                READY   STATUS             RESTARTS   AGE\n'
             'node-logger-7xq2z   0/1     CrashLoopBackOff   4          2m\n```\n')
    r = ingest_text(paste, "lab.md")
    assert [(o.kind, o.namespace) for o in r.objects] == [("Pod", "lab15-daemonset-ozil")]
    assert not r.input_rejections


def test_oc_login_says_the_project_the_session_uses() -> None:
    # a public OpenShift 3 route write-up (text index id 24524439589): `oc login` prints
    # "Using project "demo"."; its `oc get route` after it is kept as a table. The `oc get pods`
    # and `oc whoami` are added here to show where the rows go and that oc's own verbs are no
    # rejected output.
    paste = ("```\n[demo@master ~]$ oc login -u demo -p demo123\nLogin successful.\n"
             'You have one project on this server: "demo"\nUsing project "demo".\n\n'
             "[demo@master ~]$ oc whoami\ndemo\n\n"
             '[demo@master ~]$ oc create -f route-hello-world.yaml\nroute "hello-route" created\n\n'
             "[demo@master ~]$ oc get pods\n"
             "NAME                  READY   STATUS             RESTARTS   AGE\n"
             "hello-world-1-x7k2p   0/1     ImagePullBackOff   0          3m\n```\n")
    r = ingest_text(paste, "route.md")
    assert [(o.kind, o.namespace) for o in r.objects] == [("Pod", "demo")]
    assert not r.input_rejections

# Azure/AKS#3642 (2023-05-07), trimmed: AKS 1.24 after a restart, a kube-system listing pasted
# without its command (no NAMESPACE column), coredns and konnectivity-agent Pending.
_AKS_3642 = ("```\n"
             "NAME                                  READY   STATUS    RESTARTS   AGE\n"
             "azure-ip-masq-agent-lnrgw             1/1     Running   0          73m\n"
             "coredns-85cddd99d7-kxzn9              0/1     Pending   0          63m\n"
             "coredns-85cddd99d7-rk2qp              0/1     Pending   0          63m\n"
             "konnectivity-agent-7dcfbf4665-ml6dp   0/1     Pending   0          63m\n"
             "kube-proxy-2xs98                      1/1     Running   0          73m\n"
             "```\n")


def test_rows_pasted_without_their_command_listing_kube_system_components_are_kube_systems() -> None:
    # before: named bare, so coredns 0/2 was not seen as the cluster's DNS (no
    # critical-component finding) nor as AKS's own (no provider-managed)
    r = ingest_text(_AKS_3642, "issue.md")
    assert r.accounting_holds()
    assert {o.namespace for o in r.objects} == {"kube-system"}
    assert all(any("where the platform's own azure-ip-masq-agent its table lists runs" in n for n in o.notes) for o in r.objects)


def test_each_bare_table_is_its_own_listing() -> None:
    # a second bare table of the user's pods in the same paste: another listing, left alone
    user = ("```\n"
            "NAME                        READY   STATUS    RESTARTS   AGE\n"
            "web-7d4b9c8f6d-x2x9k        0/1     Pending   0          63m\n"
            "```\n")
    r = ingest_text(_AKS_3642 + "\nand my app:\n\n" + user, "issue.md")
    assert {(o.name, o.namespace) for o in r.objects if o.name.startswith("web")} == {("web-7d4b9c8f6d-x2x9k", "")}
    assert {o.namespace for o in r.objects if not o.name.startswith("web")} == {"kube-system"}


# kubernetes/dns#288 (2019-02-01), trimmed: kubeadm 1.13 with weave; the write-up shows the
# `kubectl apply` that installed weave, then prose, then a kube-system listing in an indented
# code block without its command.
_DNS_288 = ("I have initialized the cluster using :\n\n"
            "    sudo kubeadm init --token-ttl=0 --apiserver-advertise-address=192.168.88.142\n\n"
            "and weave:\n\n"
            "    kubectl apply -f \"https://cloud.weave.works/k8s/net?k8s-version=$(kubectl version | base64 | tr -d '\\n')\"\n\n"
            "All the pods seems to be running fine but `coredns` always remains in `CrashLoopBackOff` status.\n\n"
            "    NAME                                READY   STATUS             RESTARTS   AGE\n"
            "    coredns-86c58d9df4-h5plc            0/1     CrashLoopBackOff   7          18m\n"
            "    etcd-tx-g1-209                      1/1     Running            0          17m\n"
            "    kube-proxy-2jdpp                    1/1     Running            0          18m\n"
            "    weave-net-npgnc                     2/2     Running            0          13m\n")


def test_a_listing_after_a_command_that_prints_none_is_read_as_pasted_without_its_command() -> None:
    # before: the `kubectl apply` above was taken as the table's command, so the listing was no
    # bare one and its coredns stayed without a namespace (no critical-component finding)
    r = ingest_text(_DNS_288, "issue.md")
    assert r.accounting_holds()
    assert {o.namespace for o in r.objects if o.kind == "Pod"} == {"kube-system"}


# kubernetes/kubernetes#16147 (trimmed to its first rows): `kubectl get event -w` without -n, the
# watch's rows of kubectl 1.1 (no header; NAME is the involved object's, KIND its kind).
_K8S_16147 = """```
kubectl run my-nginx --replicas=2 --image=ngixn --port=80
kubectl get event -w
```
```
3s          3s         1         my-nginx         ReplicationController                                       SuccessfulCreate   {replication-controller }   Created pod: my-nginx-tkigj
3s          3s         1         my-nginx-tkigj   Pod                                                         Scheduled          {scheduler }                Successfully assigned my-nginx-tkigj to 127.0.0.1
2s          2s         1         my-nginx-p70z0   Pod                     spec.containers{my-nginx}           Pulling            {kubelet 127.0.0.1}         pulling image "ngixn"
```
"""


def test_the_objects_of_events_listed_without_namespace_are_in_the_events_namespace() -> None:
    # An event is recorded in its object's namespace: the one assumed for the event is its
    # object's too, so the events table joins it to that object (before: object_namespace <NA>).
    events = analyzer.load({"issue.md": _K8S_16147}).tables.events
    assert list(events["namespace"]) == ["default"] * 3
    assert sorted(zip(events["object_kind"], events["object_namespace"], events["object_name"], strict=True)) == [
        ("Pod", "default", "my-nginx-p70z0"), ("Pod", "default", "my-nginx-tkigj"),
        ("ReplicationController", "default", "my-nginx")]


def test_the_objects_of_events_follow_the_sessions_namespace_and_a_node_keeps_none() -> None:
    # the same rows after `kubens web`, and a node's event (hand-written, as kubectl 1.1 printed one)
    text = _K8S_16147.replace("kubectl get event -w", "kubens web\nkubectl get event -w").replace(
        "2s          2s         1         my-nginx-p70z0",
        "2s          2s         1         127.0.0.1        Node                                                        Starting           {kubelet 127.0.0.1}         Starting kubelet.\n"
        "2s          2s         1         my-nginx-p70z0")
    events = analyzer.load({"issue.md": text}).tables.events
    assert set(events["namespace"]) == {"web"}
    pairs = set(zip(events["object_kind"], events["object_namespace"].fillna(""), strict=True))
    assert pairs == {("Pod", "web"), ("ReplicationController", "web"), ("Node", "")}
