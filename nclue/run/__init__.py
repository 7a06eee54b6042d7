"""The run: what ``python reproduce.py`` does between the files and the report (docs/architecture.md).

The runner and its stages (integrity, claims, published results, the rebuild level), the frozen claim files
and their comparison, the checks and guards a stage reports through, the release's shape (which parts are
present), the diagnosis of a failing input, where the release is (``locate``), and ``freeze``, which writes
the claims the run compares against."""
