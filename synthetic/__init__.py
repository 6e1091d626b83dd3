"""Synthetic clusters, modelled once as API objects and printed as kubectl and its peers print them.

Independent of `analyzer` (it makes the dumps that `analyzer` is tested and measured on).
Layout: ids and times; `fields` (managedFields); `objects/` builds API objects (pods,
containers, nodes, workloads, controllers, events, logs); `clusters/` models whole clusters (the
four samples, the scalable benchmark cluster with its shapes catalog); `emit/` prints them, one
module per form (kubectl YAML and JSON, cluster-info dump stdout and directory, support bundle).
"""
