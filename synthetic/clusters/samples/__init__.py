"""The four sample clusters (AKS, EKS, OKE, kubeadm) with their planted problems."""
