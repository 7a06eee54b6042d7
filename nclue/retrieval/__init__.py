"""Standard-library retrieval systems over the stand-in page text (DESIGN 6.3)."""
