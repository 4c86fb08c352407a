"""Calibration: human-labelled sets, `judge calibrate` and its reports (docs/calibration.md);
the statistics are in :mod:`judge.core.scoring.agreement`."""
