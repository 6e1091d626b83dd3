"""What a Kubernetes object is: typed views, kinds and groups, scope, object keys, quantities and
API timestamps. The bottom layer: it imports nothing else of `analyzer`, and every part builds on it.
"""
