"""Calibration: human-labelled sets, their importers, `judge calibrate` and the disagreements list.

The statistics themselves are pure functions in :mod:`judge.core.scoring.agreement`; this package
reads the sets, runs the judge over them and writes reports.
"""
