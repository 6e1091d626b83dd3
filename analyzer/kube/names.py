"""How Kubernetes controllers name what they create, as patterns: a pasted row carries no
ownerReferences, so its name is what tells whose it is."""

from __future__ import annotations

import re

# apimachinery's rand.String alphabet: a ReplicaSet's pod-template-hash and every generated suffix.
RAND = r"[bcdfghjklmnpqrstvwxz2456789]"
# A Deployment's pod, `<deployment>-<pod-template-hash>-<5 random>`: (deployment, hash).
DEPLOYMENT_POD = re.compile(rf"(.+)-({RAND}{{6,10}})-{RAND}{{5}}")
