"""`kda get` of add-ons' custom resources read from pasted tables: the columns their CRDs print
(known_resources.yaml, the dump holding no CRD), and a cell the paste printed empty printed
empty, not `<unknown>`."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()

# Trimmed from RoadieHQ/helm-charts backstage/README.md (`k get challenges -o wide`): the valid
# challenge has no REASON, printed empty between DOMAIN and AGE.
CHALLENGES = """\
$ kubectl get challenges -o wide -n backstage
NAME    STATE     DOMAIN                                REASON                                                                    AGE
tls-1   valid     lighthouse.backstage-demo.roadie.io                                                                             13m
tls-2   pending   gitops.backstage-demo.roadie.io       Waiting for http-01 challenge propagation: failed to perform self check   13m
"""

# Trimmed from onedr0p/cluster-template#356 (k3s, a task runner's `kubectl get kustomizations
# -A`), with a HelmRelease row in the same layout (fluxcd/helm-controller's CRD).
FLUX = """\
task: [cluster:kustomizations] kubectl get kustomizations -A
NAMESPACE     NAME   AGE   READY   STATUS
flux-system   apps   23h   False   kustomize build failed: accumulating resources
$ kubectl get hr -A
NAMESPACE   NAME      AGE   READY   STATUS
default     podinfo   5m    False   install retries exhausted
"""


def _get(tmp_path: Path, text: str, *args: str) -> list[list[str]]:
    dump = tmp_path / "paste.txt"
    dump.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["get", *args, str(dump)])
    assert result.exit_code == 0, result.output
    return [line.split("   ") for line in result.output.splitlines()]


def test_a_cell_the_paste_printed_empty_is_empty_not_unknown(tmp_path: Path) -> None:
    lines = _get(tmp_path, CHALLENGES, "challenges", "-o", "wide", "-n", "backstage")
    assert "<unknown>" not in "\n".join("   ".join(line) for line in lines)
    valid = [cell.strip() for cell in lines[1] if cell.strip()]
    assert valid == ["tls-1", "valid", "lighthouse.backstage-demo.roadie.io", "13m"]
    assert "Waiting for http-01 challenge propagation" in "   ".join(lines[2])


def test_a_cut_row_still_prints_unknown_for_what_it_left_out(tmp_path: Path) -> None:
    # the writer kept only the first columns: REASON and AGE were not shown, so not empty
    text = ("$ kubectl get challenges -o wide -n backstage\n"
            "NAME    STATE     DOMAIN                                REASON   AGE\n"
            "tls-1   pending   gitops.backstage-demo.roadie.io\n")
    lines = _get(tmp_path, text, "challenges", "-o", "wide", "-n", "backstage")
    assert "<unknown>" in "   ".join(lines[1])


def test_flux_kustomizations_and_helm_releases_print_their_crds_columns(tmp_path: Path) -> None:
    for kind in ("kustomizations", "ks", "hr", "helmreleases"):
        lines = _get(tmp_path, FLUX, kind, "-A")
        assert [cell.strip() for cell in lines[0] if cell.strip()] == [
            "NAMESPACE", "NAME", "AGE", "READY", "STATUS"], kind
    row = " ".join(_get(tmp_path, FLUX, "ks", "-A")[1])
    assert "False" in row and "kustomize build failed: accumulating resources" in row
    assert "install retries exhausted" in " ".join(_get(tmp_path, FLUX, "hr", "-A")[1])
