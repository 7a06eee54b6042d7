"""Standard-library retrieval systems over the stand-in page text (docs/stand-in.md#the-systems)."""
