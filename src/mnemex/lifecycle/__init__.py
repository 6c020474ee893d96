"""Memory lifecycle: forgetting (gc), promotion to a Markdown vault, clustering, consolidation."""
