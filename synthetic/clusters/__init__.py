"""Whole clusters: the four sample clusters and the scalable benchmark cluster."""
