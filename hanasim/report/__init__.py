"""Reports: HTML + Markdown with tables and charts of a simulation (``hanasim report``).

``build_report(game, rounds, seed, out=...)`` writes them into one folder, swapped in whole
(:mod:`.folder`); :mod:`.charts` draws the charts with
:mod:`hanasim.plot` (the functions notebooks use), :mod:`.render` turns one list of blocks into
both formats.
"""
from .build import SECTIONS, build_report, exact_comparison, findings

__all__ = ["build_report", "exact_comparison", "findings", "SECTIONS"]
