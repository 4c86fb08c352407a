"""Where scoring jobs run: the executor seam and the job queue (docs/deploy.md).

One direction, never back: ``executors`` (the seam and the choice by settings) builds a
``worker.QueueExecutor`` or a thread pool (``judge.server.service.jobs``); ``worker`` runs the
procrastinate app of ``tasks``; ``tasks`` calls the job function of ``judge.server.service.jobs``.
``status`` (the owner's view) and ``metrics`` (the ``/metrics`` gauges) read the store
(``judge.server.store.job_status``) and are imported by nothing here.
"""
