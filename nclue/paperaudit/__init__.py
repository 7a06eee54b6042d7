"""Paper audit: the published numbers of the paper, checked for internal consistency (docs/paper-audit.md)."""
