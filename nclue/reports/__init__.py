"""The reports: a result rendered for a reader (docs/architecture.md).

The run's text, JSON, HTML and JUnit reports and their figures, and the tables of the commands' results
(``score``, ``compare``, ``reproduce-run``).  A module here computes nothing it shows: it reads a result
value made by :mod:`nclue.run` or :mod:`nclue.commands`."""
