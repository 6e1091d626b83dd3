"""Distribution marks the labels of a system namespace's objects carry: EKS's add-on manager."""

from __future__ import annotations

import analyzer
from analyzer.distributions import detect_distribution

# Trimmed from FedericoGGM/mundoes @ 2ff68ca7, 04_monitoreo/04_notes.md (EKS, 2025): `kubectl describe
# serviceaccount ebs-csi-controller-sa -n kube-system` of the EBS CSI add-on, pasted alone.
EKS_ADDON_SA = """ubuntu@ip-172-31-34-116:~$ kubectl describe serviceaccount ebs-csi-controller-sa -n kube-system
Name:                ebs-csi-controller-sa
Namespace:           kube-system
Labels:              app.kubernetes.io/component=csi-driver
                     app.kubernetes.io/managed-by=EKS
                     app.kubernetes.io/name=aws-ebs-csi-driver
                     app.kubernetes.io/version=1.45.0
Annotations:         eks.amazonaws.com/role-arn: arn:aws:iam::183295451532:role/eksctl-eks-mundos-e-addon-iamserviceaccount-kub-Role1-*
Image pull secrets:  <none>
Mountable secrets:   <none>
Tokens:              <none>
Events:              <none>
"""


def _detect(text: str):
    return detect_distribution(analyzer.load({"notes.md": text}))


def test_an_eks_addons_service_account_is_eks() -> None:
    dist = _detect(EKS_ADDON_SA)
    assert dist.name == "eks" and dist.confidence >= 0.6
    assert [e.value for e in dist.evidence_for("eks") if e.signal == "system_object_label"] == [
        "app.kubernetes.io/managed-by=EKS"]


def test_a_helm_install_of_the_same_driver_says_nothing() -> None:
    assert _detect(EKS_ADDON_SA.replace("managed-by=EKS", "managed-by=Helm")).name == "unknown"


def test_the_label_outside_a_system_namespace_says_nothing() -> None:
    assert _detect(EKS_ADDON_SA.replace("kube-system", "shop")).name == "unknown"
