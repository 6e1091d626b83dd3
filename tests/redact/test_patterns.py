"""Credential masking and recognisers of earlier redaction, on values written for these tests
(shapes from kubectl describe, kubectl JSON, last-applied annotations and real log lines)."""

from __future__ import annotations

import pytest

from analyzer.redact import is_already_redacted, mask_sensitive
from analyzer.sensitive.credentials import mask_credentials
from analyzer.sensitive.masking import is_sensitive_env, mask_annotation, mask_named_value

MASKED = [
    ("postgres://app:hunter2@db:5432/orders", "postgres://app:<redacted>@db:5432/orders"),
    ("Server=db;User Id=sa;Password=hunter2;", "Server=db;User Id=sa;Password=<redacted>;"),
    ("--token=abc123def", "--token=<redacted>"),
    ("--oidc-client-secret=s3cr3tvalue", "--oidc-client-secret=<redacted>"),
    ('"client_secret": "abc"', '"client_secret": "<redacted>"'),
    ("      DB_PASSWORD:  hunter2", "      DB_PASSWORD:  <redacted>"),  # kubectl describe pod env
    ("authToken: xyz123", "authToken: <redacted>"),
    ("Authorization: Bearer abcDEF123456", "Authorization: Bearer <redacted>"),
    ("Basic dXNlcjpwYXNz", "Basic <redacted>"),
    ("AccountKey=q1w2e3r4t5==;EndpointSuffix=core.windows.net", "AccountKey=<redacted>;EndpointSuffix=core.windows.net"),
    ("key AKIAIOSFODNN7EXAMPLE here", "key <redacted> here"),
    ("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlLXBhcnQ", "<redacted>"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
     "-----BEGIN RSA PRIVATE KEY-----<redacted>-----END RSA PRIVATE KEY-----"),
    # env entries: YAML, kubectl JSON, and JSON escaped inside a last-applied annotation
    ("- name: API_TOKEN\n  value: abc123\n", "- name: API_TOKEN\n  value: <redacted>\n"),
    ('"name": "DB_PASS",\n            "value": "s3cr3t"\n', '"name": "DB_PASS",\n            "value": "<redacted>"\n'),
    ('{\\"name\\":\\"DB_PASSWORD\\",\\"value\\":\\"hunter2\\"}', '{\\"name\\":\\"DB_PASSWORD\\",\\"value\\":\\"<redacted>\\"}'),
    # an Azure SAS URL (its signature grants access) and a GitHub token
    ("https://acct.blob.core.windows.net/c/x.tar?sv=2022-11-02&sr=b&sig=a1B2%2Bc3D%3D&se=2030-01-01",
     "https://acct.blob.core.windows.net/c/x.tar?sv=2022-11-02&sr=b&sig=<redacted>&se=2030-01-01"),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "<redacted>"),
    # a K3s/RKE2 join token in its secure form (docs.k3s.io/cli/token: K10<CA hash>::<user>:<password>),
    # under any name or none, and a token keyed by a URL or an annotation's key with a slash
    ("token: K10" + "7c" * 32 + "::server:5e1f0a", "token: <redacted>"),
    ("node-token: K10" + "7c" * 32 + "::node:5e1f0a", "node-token: <redacted>"),
    ('"https://sso.example.com/oauth/access-token": "abc123"', '"https://sso.example.com/oauth/access-token": "<redacted>"'),
    ('"example.com/api-token": "abc123"', '"example.com/api-token": "<redacted>"'),
    ("failed to read node-token: s3cr3tvalue", "failed to read node-token: <redacted>"),
    # a credential flag and its value as the next word (kubeadm's join command as pasted in
    # kubernetes/kubeadm#519 and #2774; Ansible's JSON of the command, redhat-nfvpe/kube-ansible#289)
    ("kubeadm join --token 447067.20b55955bd6abe6c 192.168.99.100:8443 --discovery-token-ca-cert-hash sha256:1702",
     "kubeadm join --token <redacted> 192.168.99.100:8443 --discovery-token-ca-cert-hash sha256:1702"),
    ("kubeadm join 10.0.2.15:6443 --token zqss0q.y7hsu227c5ymeb19 \\ > --discovery-token-ca-cert-hash sha256:2790",
     "kubeadm join 10.0.2.15:6443 --token <redacted> \\ > --discovery-token-ca-cert-hash sha256:2790"),
    ('"cmd": "kubeadm join --ignore-preflight-errors=all  192.168.122.196:6443 --token mqh0xs.ptfyb3ykfa3hthrt  "',
     '"cmd": "kubeadm join --ignore-preflight-errors=all  192.168.122.196:6443 --token <redacted>  "'),
    ("docker login -u admin --password hunter2 registry.example.com",
     "docker login -u admin --password <redacted> registry.example.com"),
    # a registry login's short `-p`, as a CI log echoed it (charmed-kubernetes/jenkins#168), and oc's
    ("[2018-04-04 20:21:25] cmd: docker login localhost:30534 -u test-user -p s3cRet9x",
     "[2018-04-04 20:21:25] cmd: docker login localhost:30534 -u test-user -p <redacted>"),
    ("oc login -u developer -p=hunter2", "oc login -u developer -p=<redacted>"),
    # curl's basic auth as a ticket pasted the request (rancher/rancher#19134, its keys made up)
    ("curl -i -u 61948ADF95E988C9AB12:Pqnpe9wzNHAfgXyAYLXYdu4R8m58k8 http://rancher:8000/r/projects/1a7/kubernetes:8080",
     "curl -i -u 61948ADF95E988C9AB12:<redacted> http://rancher:8000/r/projects/1a7/kubernetes:8080"),
    ('curl --user "admin:S3cr3t" https://10.0.0.1:6443/api', 'curl --user "admin:<redacted>" https://10.0.0.1:6443/api'),
    # a password as a URL's query parameter (Technitium DNS Server's HTTP API login, as its docs
    # and scripts call it: `/api/user/login?user=admin&pass=...`, the value made up here)
    ('curl -s "http://localhost:5380/api/user/login?user=admin&pass=Tq8vRw2z" | jq -r .token',
     'curl -s "http://localhost:5380/api/user/login?user=admin&pass=<redacted>" | jq -r .token'),
    # a kubeconfig's bare token (kubernetes/kubectl#667), in YAML, in a string's escaped lines, in
    # JSON; a kubeadm bootstrap token
    ("    client-key-data: REDACTED\n    token: 12345678ABCDEFG\n", "    client-key-data: REDACTED\n    token: <redacted>\n"),
    ('"  user:\\n    token: 12345678ABCDEFG\\n"', '"  user:\\n    token: <redacted>\\n"'),
    ('{"token": "abc123def456"}', '{"token": "<redacted>"}'),
    ("bootstrapTokens:\n- token: abcdef.0123456789abcdef\n", "bootstrapTokens:\n- token: <redacted>\n"),
    # ... and as the next element of an argv list: YAML (an Argo workflow's `- --db-password`
    # then its value), quoted YAML, kubectl's JSON, JSON escaped in last-applied, describe's Args
    ("args:\n- ingest\n- --db-password\n- hunter2\n- --save\n", "args:\n- ingest\n- --db-password\n- <redacted>\n- --save\n"),
    ('    - "--client-secret"\n    - "s3cr3tvalue"\n', '    - "--client-secret"\n    - "<redacted>"\n'),
    ('"args": [\n  "--db-password",\n  "hunter2",\n  "-v"\n]', '"args": [\n  "--db-password",\n  "<redacted>",\n  "-v"\n]'),
    ('{\\"args\\":[\\"--token\\",\\"abc123def\\"]}', '{\\"args\\":[\\"--token\\",\\"<redacted>\\"]}'),
    ("    Args:\n      --db-password\n      hunter2\n      --verbose\n",
     "    Args:\n      --db-password\n      <redacted>\n      --verbose\n"),
    # a URL's password with no user, Redis's form (1Password/scim-examples#210: `rediss://:password@redis:6379`)
    ("OP_REDIS_URL=rediss://:hunter2@redis:6379", "OP_REDIS_URL=rediss://:<redacted>@redis:6379"),
    # a private key base64-encoded, as the kubeconfig pasted in lensapp/lens#3941 holds it
    # (`client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF...`, this one made up)
    ("    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBeDkwCg==\n",
     "    client-key-data: <redacted>\n"),
    ('"tls.key": "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJn"', '"tls.key": "<redacted>"'),
    # a Helm release in its storage (a Tiller ConfigMap's, helm/helm-mapkubeapis#31): gzip, base64
    ("  release: H4sIAAAAAAAC/+xbzY8kyVXXfO2MAyMtjYXECovnalvabU9mfUxPd09KIzE7\n", "  release: <redacted>\n"),
    ('"release": "H4sIAAAAAAAC/+xbW2/bOBZ+z68QNMDsm2TLju3YQB6SNm2DadJsnHRmt1gUtETbbCRSJak4RuH/"',
     '"release": "<redacted>"'),
]

# Everyday text that names credentials without holding one (seen in real dumps' logs and CRDs).
KEPT = [
    "failed to list *core.Secret: etcdserver: request timed out",
    "auth: simple token is not cryptographically signed",
    "BasicAuth holds the HTTP basic authentication configuration.",
    "IptablesMarkPass:0x20000",
    "password: 12 bytes",  # kubectl describe secret
    "secretName: default-token-x7k2p",
    "automountServiceAccountToken: true",
    "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n",
    "AZURE_CREDENTIAL_FILE=/etc/kubernetes/azure.json",
    "password: ***HIDDEN***",
    "password=$(DB_PASSWORD)",
    # the placeholder in Technitium's docs, and a word that only ends in `pass=` (`bypass=true`)
    "/api/user/login?user=admin&pass=<password>",
    "iptables --bypass=true",
    "Bearer token is invalid",
    # flags that name a credential's file, lifetime or Secret, a flag's type in a usage text,
    # a shell variable, a value already masked (RKE2's node-args annotation, realdata
    # rke2/support-bundle-kit-harvester nodes.yaml), a flag after a flag
    "--token-ttl 24h --password-file /etc/pw --secret db-credentials --discovery-token-ca-cert-hash sha256:1702",
    "      --token string   Bearer token for authentication to the API server",
    "kubectl get pods --token $TOKEN",
    '["server","--token","********","--agent-token","********","--node-ip","10.0.0.1"]',
    "- --token\n- --debug\n",
    # a certificate is public (the cluster's CA tells two dumps of one cluster), and a port is no password
    "    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJn",
    "http://:8080/metrics tcp://10.0.0.1:6379",
    # a login's password by reference, a later command's `-p` (a port), a token's word in prose and
    # describe secret's size
    "sudo docker login -u developer -p $(oc whoami -t) 172.30.1.1:5000",
    "docker login registry.example.com && docker run -p 8080:80 nginx",
    "curl -u admin https://10.0.0.1:6443/api",  # curl asks for the password
    "token: expired\nerror: token is invalid: 12345678ab is not a JWT",
    "token:      953 bytes",
]


def test_a_failed_request_for_a_token_is_no_token() -> None:
    # Trimmed from a K3s edge troubleshooting note in the public code index (its repository not
    # named there): an agent's journal, its server refusing the connection. Go's request error
    # names the node-token's URL, and no token: before, "Get" and "dial" were masked as tokens,
    # hiding the URL and the error the reader needs.
    line = ('Nov 11 10:30:15 edge-node-1 k3s-agent[1234]: time="2025-11-11T10:30:15Z" level=error '
            'msg="Failed to join cluster: failed to get node-token: Get \\"https://10.0.1.10:6443/v1-k3s/node-token\\": '
            'dial tcp 10.0.1.10:6443: connect: connection refused"')
    assert mask_sensitive(line) == line
    unescaped = line.replace('\\"', '"')
    assert mask_sensitive(unescaped) == unescaped


@pytest.mark.parametrize(("text", "expected"), MASKED)
def test_credentials_are_masked(text: str, expected: str) -> None:
    assert mask_sensitive(text) == expected
    assert mask_credentials(text)[1] >= 1


@pytest.mark.parametrize("text", KEPT)
def test_prose_and_references_are_kept(text: str) -> None:
    assert mask_sensitive(text) == text


@pytest.mark.parametrize(("name", "value", "sensitive"), [
    ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI", True),
    ("GITHUB_TOKEN", "ghp_x", True),
    ("SMTP_PASS", "x", True),
    ("PASSWORD", "", False),
    ("DB_PASSWORD", "$(FROM_SECRET)", False),
    ("JAVA_OPTS", "-Dspring.datasource.password=hunter2", True),
    ("TLS_KEY", "-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----", True),
    ("BACKUP_URL", "https://a.blob.core.windows.net/b?sv=2022-11-02&sig=a1B2c3D4", True),
    ("HOME", "/root", False),
    ("PWD", "/app", False),
    ("KUBERNETES_SERVICE_HOST", "10.96.0.1", False),
    ("REPLICAS", 3, False),
])
def test_sensitive_env(name: str, value: object, sensitive: bool) -> None:
    # what the container_env table flags: whatever mask_named_value would mask
    assert is_sensitive_env(name, value) is sensitive


@pytest.mark.parametrize(("key", "value", "shown"), [
    ("deployment.kubernetes.io/revision", "3", "3"),
    ("example.com/auth", "Bearer eyJhbGciOi", "Bearer <redacted>"),
    ("example.com/api-key", "abc123", "<redacted>"),
    ("example.com/ci", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "<redacted>"),
    # "secret" and "token" in an annotation key name an object, not a value
    ("cert-manager.io/secret-name", "tls-cert", "tls-cert"),
    ("checksum/secret", "3f2a9c", "3f2a9c"),
    ("vault.hashicorp.com/agent-inject-token", "true", "true"),
])
def test_annotations_are_read_with_their_key(key: str, value: str, shown: str) -> None:
    assert mask_annotation(key, value) == shown
    assert mask_annotation(key, value, show_sensitive=True) == value


def test_masking_is_idempotent() -> None:
    for text, _ in MASKED:
        once = mask_sensitive(text)
        assert mask_sensitive(once) == once


def test_named_values() -> None:
    assert mask_named_value("DB_PASSWORD", "hunter2") == "<redacted>"
    assert mask_named_value("DB_PASSWORD", "$(FROM_SECRET)") == "$(FROM_SECRET)"
    assert mask_named_value("LOG_LEVEL", "debug") == "debug"
    assert mask_named_value("DATABASE_URL", "mysql://u:pw@h/db") == "mysql://u:<redacted>@h/db"


@pytest.mark.parametrize("value", [
    "***HIDDEN***", "--public-addr=***HIDDEN***", "***TOKEN_REDACTED_1A2B***", "x-ipv4-0000000001-x",
    "x-fqdn-0000000042-x", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "<redacted: 7 bytes>",
])
def test_earlier_redaction_is_recognised(value: str) -> None:
    assert is_already_redacted(value)


@pytest.mark.parametrize("value", ["10.0.0.1", "box", "ip-10-0-1-5.ec2.internal", "maxx", "x-ray"])
def test_real_values_are_not_taken_for_redaction(value: str) -> None:
    assert not is_already_redacted(value)


def test_show_sensitive_opts_out() -> None:
    assert mask_sensitive("--token=abc123def", show_sensitive=True) == "--token=abc123def"
    assert mask_named_value("DB_PASSWORD", "hunter2", show_sensitive=True) == "hunter2"


def test_go_struct_dumps_are_not_credentials() -> None:
    # kube-proxy logs print Go structs (realdata/minikube/multi-k8s-ciobotaru)
    text = 'DeprecatedServiceAccount:"kube-proxy", AutomountServiceAccountToken:(*bool)(nil), NodeName:""'
    assert mask_sensitive(text) == text


@pytest.mark.parametrize("text", [
    # found by test_fuzz.py: masking must never reach across a JSON string's quotes
    '{"spec": {"TOKEN=": null}}',
    '{"password:": "abc", "n": 1}',
    '{"a": "-----BEGIN RSA PRIVATE KEY-----", "b": 1, "c": "-----END RSA PRIVATE KEY-----"}',
])
def test_masking_keeps_json_valid(text: str) -> None:
    import json

    json.loads(mask_sensitive(text))
