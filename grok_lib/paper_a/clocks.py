"""Paper A's slow clock on the MLP: the stable rank's fall after its peak.

The fast clock and the grokking epoch are generic (:mod:`grok_lib.clocks`).
"""

from __future__ import annotations

import numpy as np

from ..clocks import first_crossing
from ..history import History


#: The slow clock's threshold, as a fraction of the stable rank's peak (see :func:`t_rep_srank`).
T_REP_FRACTION = 0.8


def t_rep_srank(history: History, matrix: str = "E", fraction: float = T_REP_FRACTION) -> float:
    """Slow (representation) clock, eq. 2.2, with S = the stable rank of ``matrix``.

    Paper A does not give its threshold. Here T_rep is the first recorded epoch *after
    the peak* of srank at which srank <= ``fraction`` x peak (by default: fallen 20%
    below its peak). NaN if the fall never gets that far.
    """
    srank = history[f"srank_{matrix}"]
    peak = int(np.argmax(srank))
    return first_crossing(history.steps[peak:], srank[peak:], fraction * srank[peak])
