"""The stand-in instrument builder (synthetic; docs/stand-in.md)."""
