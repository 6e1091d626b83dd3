"""Recognisers of the ids a dump leaks (IPs, host names, cloud ids, emails), which `kda redact`
replaces with pseudonyms. They work on raw text of any format, as the credential patterns of
`analyzer.sensitive.credentials` do."""

from __future__ import annotations

import re

# -- ids a dump leaks ---------------------------------------------------------------------------

# Where a replaced value may start: after no letter or digit, or right after a newline or tab
# escape inside a JSON string ("...\n10.0.0.5 GET /"), but never after a bare backslash, where
# changing the first letter would change the escape itself.
START = r"(?:(?<![A-Za-z0-9\\])|(?<=\\[nrt]))"

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = re.compile(rf"(?:(?<![\w.\\])|(?<=\\[nrt]))(?P<ip>{_OCTET}(?:\.{_OCTET}){{3}})(?:/(?P<bits>3[0-2]|[12]?\d))?(?![\w]|\.\d)")
# Hostnames that spell an IPv4 with dashes: ip-10-0-1-5 (EC2), ec2-54-1-2-3 (EC2 public DNS).
DASHED_IPV4 = re.compile(rf"{START}(?P<prefix>ip|ec2)-(?P<ip>{_OCTET}(?:-{_OCTET}){{3}})(?![0-9])")
IPV6 = re.compile(r"(?<![\w:.\\])(?P<ip>(?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{0,4}|::(?:[0-9a-fA-F]{1,4}:){0,6}[0-9a-fA-F]{1,4})"
                  r"(?:/(?P<bits>12[0-8]|1[01]\d|[1-9]?\d))?(?![\w:])")

# Cloud ids with a fixed shape: the unique part is replaced, the shape kept.
OCID = re.compile(r"(?P<pre>ocid1\.(?<![A-Za-z0-9]ocid1\.)[a-z0-9_]+\.oc[0-9]+\.[a-z0-9-]*\.)(?P<unique>[a-z0-9]{20,})\b")
AWS_INSTANCE_ID = re.compile(r"(?P<pre>i-)(?<![A-Za-z0-9-]i-)(?P<unique>[0-9a-f]{8}(?:[0-9a-f]{9})?)(?![A-Za-z0-9-])")
UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

# Patterns that name an account, a group or a cluster; what they capture is replaced everywhere.
# The middle column: lowercase words one of which a text must hold for the pattern to run.
LEARNED_IDS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("azure-subscription", ("/subscriptions/",), re.compile(rf"(?i)/subscriptions/(?P<id>{UUID})")),
    ("azure-subscription", ("subscriptionid", "tenantid", "clientid", "userassignedidentityid", "objectid"), re.compile(
        rf"(?:subscriptionId|tenantId|aadClientId|clientId|userAssignedIdentityID|objectId)\\*\"?[ \t]*[:=][ \t]*\\*\"?(?P<id>{UUID})",
        re.I)),
    ("azure-resource-group", ("/resourcegroups/",), re.compile(r"(?i)/resourceGroups/(?P<id>[A-Za-z0-9_.()-]+)")),
    ("azure-resource-group", ("resourcegroup",), re.compile(
        r"(?i)resourceGroup\\*\"?[ \t]*[:=][ \t]*\\*\"?(?P<id>[A-Za-z0-9_.()-]+)")),
    ("aws-account", ("arn:aws",), re.compile(r"arn:aws[a-z-]*:[a-z0-9-]*:[a-z0-9-]*:(?P<id>\d{12}):")),
    ("aws-account", (".dkr.ecr.",), re.compile(r"(?<![\d.])(?P<id>\d{12})\.dkr\.ecr\.")),
    ("gcp-project", ("gce://",), re.compile(r"gce://(?P<id>[a-z][a-z0-9-]{4,28}[a-z0-9])/")),
    ("gcp-project", ("projects/",), re.compile(r"(?<![A-Za-z0-9])projects/(?P<id>[a-z][a-z0-9-]{4,28}[a-z0-9])/")),
    ("cluster-name", ("--cluster-name",), re.compile(r"(?i)--cluster-name[= ](?P<id>[A-Za-z0-9][A-Za-z0-9_.-]*)")),
    ("cluster-name", ("clustername",), re.compile(
        r"(?i)(?<![A-Za-z0-9])clusterName\\*\"?[ \t]*:[ \t]*\\*\"?(?P<id>[A-Za-z0-9][A-Za-z0-9_.-]*)")),
    ("cluster-name", ("cluster-name",), re.compile(
        r"(?:alpha\.eksctl\.io/cluster-name|eks\.amazonaws\.com/cluster-name|cluster\.x-k8s\.io/cluster-name"
        r"|kubernetes\.azure\.com/cluster-name)\\*\"?[ \t]*[:=][ \t]*\\*\"?(?P<id>[A-Za-z0-9][A-Za-z0-9_.-]*)")),
    ("cluster-name", ("mc_",), re.compile(
        r"(?<![A-Za-z0-9])MC_(?P<id>[A-Za-z0-9_.()-]+?_[A-Za-z0-9-]+)_[a-z]+[0-9]?(?![A-Za-z0-9_])")),
    ("node-pool", ("nodegroup", "nodepool", "agentpool"), re.compile(
        r"(?:eks\.amazonaws\.com/nodegroup|alpha\.eksctl\.io/nodegroup-name|cloud\.google\.com/gke-nodepool"
        r"|karpenter\.sh/nodepool|kubernetes\.azure\.com/agentpool|(?<![\w./-])agentpool)\\*\"?[ \t]*[:=][ \t]*\\*\"?"
        r"(?P<id>[A-Za-z0-9][A-Za-z0-9_.-]*)")),
    ("cluster-name", ("cloud-provider-aws",), re.compile(
        r"k8s\.io/cloud-provider-aws\\*\"?[ \t]*[:=][ \t]*\\*\"?(?P<id>[0-9a-f]{16,})")),
    ("oci-compartment", ("compartment.name",), re.compile(
        r"node\.info/compartment\.name\\*\"?[ \t]*:[ \t]*\\*\"?(?P<id>[A-Za-z0-9][A-Za-z0-9_.-]*)")),
)

# An e-mail address: its local part names a person, its domain a company.
EMAIL = re.compile(r"(?<![A-Za-z0-9._%+-])(?P<local>[A-Za-z0-9][A-Za-z0-9._%+-]{1,63})@(?P<domain>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b")

# AWS accounts that publish EKS add-on images: public, and the detection reads their registries.
AWS_PUBLIC_ACCOUNTS = frozenset({
    "602401143452", "800184023465", "558608220178", "918309763551", "961992271922", "900889452093",
    "013241004608", "151742754352", "296578399912", "590381155156", "066635153087", "877085696533",
    "763104351884", "381492149422", "499154658826", "309221049525",
})

# A hostname: dot-separated labels ending in a top-level domain people use for hosts.
HOSTNAME = re.compile(
    r"(?:(?<![\w.\\-])|(?<=\\[nrt]))(?P<host>(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
    r"(?i:com|net|org|io|dev|cloud|internal|local|lan|corp|intra|app|ai|co|biz|info|us|uk|de|fr|nl|eu|ca|au|in|jp"
    r"|cn|br|ch|se|no|dk|fi|es|it|pl|be|at|ie|nz|sg|kr|ru|gov|edu|mil|int|tech|site|online|xyz|me|tv))"
    r"(?![\w-]|\.[A-Za-z0-9])"
)
