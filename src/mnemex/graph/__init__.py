"""The knowledge graph kept beside the memories: entities, aliases and typed relations."""
