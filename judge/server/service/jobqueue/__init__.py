"""Where scoring jobs run (docs/deploy.md). Imports go one way: ``executors`` builds a
``worker.QueueExecutor`` or ``jobs.ScoringWorkers``; ``worker`` runs the app of ``tasks``, which
calls ``jobs.score_stored_run``; ``status`` and ``metrics`` read the store, imported by nothing here."""
