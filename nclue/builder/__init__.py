"""The stand-in instrument builder (synthetic; DESIGN section 6)."""
