"""An Event's reason as Kubernetes says it now, for the lower-case words of 1.0: the same events,
renamed CamelCase in 1.1 (kubernetes/kubernetes#12516 for the kubelet, #12539 for the scheduler
and the replication manager, after #12464: "Event.Reason should be CamelCase")."""

from __future__ import annotations

# What the 1.0 components recorded, read in their source and in pastes of the time, with the
# name each took when renamed (only the first letter changed, so the meaning is the same):
# - the scheduler: `failedScheduling`, `scheduled` (kubernetes#11453's and #9207's describes,
#   #9452's `scheduled  Successfully assigned dns-frontend to 127.0.0.1`);
# - the kubelet's docker manager: `pulling` (#9452), `pulled`, `failed`, `created`, `started`,
#   `killing` (pkg/kubelet/dockertools/manager.go of the GoogleCloudPlatform/kubernetes tree);
#   its pod workers: `failedSync`; its volumes: `failedMount`; its prober: `unhealthy`; its
#   start: `starting  Starting kubelet.` (docs/user-guide/introspection-and-debugging.md of 1.0);
# - the replication manager: `successfulCreate`, `failedCreate` (pkg/controller/replication_controller_utils.go).
_RENAMED = frozenset({
    "failedScheduling", "scheduled",
    "pulling", "pulled", "failed", "created", "started", "killing",
    "failedSync", "failedMount", "unhealthy", "starting",
    "successfulCreate", "failedCreate",
})


def current_reason(reason: str) -> str:
    """The reason a 1.0 component's lower-case word became (`failedScheduling` -> `FailedScheduling`);
    any other reason as it is.

    >>> current_reason("failedScheduling"), current_reason("pulled"), current_reason("BackOff"), current_reason("cancelled")
    ('FailedScheduling', 'Pulled', 'BackOff', 'cancelled')
    """
    return reason[:1].upper() + reason[1:] if reason in _RENAMED else reason
