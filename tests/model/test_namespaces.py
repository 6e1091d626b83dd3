"""One list of system namespaces (analyzer/model/data/system_namespaces.yaml) for both of its readers."""

from analyzer.distributions.profiles import load_profiles
from analyzer.findings.facts import is_system_namespace
from analyzer.model.namespaces import system_namespaces


def test_the_distributions_read_the_platforms_and_the_addons_namespaces() -> None:
    lists = system_namespaces()
    profiles = load_profiles()
    assert profiles.system_namespace_names == lists.platform.names | lists.addons.names
    assert set(profiles.system_namespace_prefixes) == set(lists.platform.prefixes + lists.addons.prefixes)
    # sonobuoy's collectors are not cluster components (results-0.10 listed them as unknown ones)
    assert not profiles.is_system_namespace("heptio-sonobuoy")
    assert profiles.is_system_namespace("velero") and profiles.is_system_namespace("kube-system")


def test_the_findings_skip_the_platforms_and_the_dump_tools_namespaces() -> None:
    lists = system_namespaces()
    for name in lists.platform.names | lists.dump_tools.names:
        assert is_system_namespace(name), name
    # an add-on the cluster's owner installed is theirs to fix (kURL's velero restic as root)
    for name in lists.addons.names:
        assert not is_system_namespace(name), name
    assert is_system_namespace("openshift-dns") and not is_system_namespace("shop")


def test_no_namespace_is_both_the_platforms_and_an_addons() -> None:
    lists = system_namespaces()
    assert not lists.platform.names & lists.addons.names
    assert not lists.dump_tools.names & (lists.platform.names | lists.addons.names)
