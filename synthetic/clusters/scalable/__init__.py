"""The scalable benchmark cluster: a kubeadm cluster of any size, in the shapes of its catalog."""
