"""Your own run: a pasted log's steps read (``logs``), and the factors they pin fitted (``fit``).  Pure: no web
imports; the route (app/routes/calibrate.py) parses, calls ``calibrate`` and renders."""

from app.calibrate.fit import Calibration, calibrate
from app.calibrate.logs import LogError, LogRead, read_log

__all__ = ["Calibration", "LogError", "LogRead", "calibrate", "read_log"]
