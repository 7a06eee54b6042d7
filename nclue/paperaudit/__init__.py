"""Paper audit: the published numbers of the paper, checked for internal consistency (DESIGN 8)."""
