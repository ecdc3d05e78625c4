"""What several Part C chapters' claims share (:class:`grok_lib.grading.Claim`): where the paper's own results are read
from, and the choices two chapters grade over (the loss level ℓ a curve is compared down to; the family-wise level of
the accuracy law's test) and the accuracy law's bar.

Paper C's own words are not among the book's sources: its results are known from the book's notes on the paper
(``shared/PAPERS.md``), whose formulas the quotes of the paper's claims give, and from the authors' rebuttal
(``shared/seeds/linear_estimators_rebuttal.txt``), quoted word for word where a claim rests on it.
"""

from __future__ import annotations

from ..grading import Bar, Choice
from .measure import PAPER_EPS, WINDOW_LEVEL, WINDOW_LEVELS


#: Where the paper's own results are read from.
NOTES = "the paper's text, as the book's notes on it record it (shared/PAPERS.md)"
REBUTTAL = "the authors' rebuttal (OpenReview)"


#: The accuracy law: the largest binomial z over the Bonferroni bound at the family-wise level (the test's own bound).
ACC_BOUND = Bar(hi=1.0)
ACC_LEVELS, ACC_LEVEL = (0.01, 0.05, 0.1), 0.05  #: family-wise levels of the binomial test of every comparison

#: The range a loss curve is compared with its theory over: the book's choice.
WINDOW = Choice("level ℓ", WINDOW_LEVEL, WINDOW_LEVELS,
                f"the paper's figures show the losses while its accuracies move; the book reads the curves until the "
                f"reference losses have fallen to ℓ = ε/2, ε/4 or ε/8 (ε = {PAPER_EPS:g}: the accuracy law at 84%, "
                "95.4% and 99.5%); deeper down GD's factor (1 − 2ηs)^t and the flow's e^{−2ηst} drift apart like "
                "t (ηs)², so any fixed tolerance fails somewhere in the tail", ".3g")


ACC_FAMILY = Choice("family-wise level", ACC_LEVEL, ACC_LEVELS,
                    "the level of the binomial test over all the comparisons: the paper states no test; the usual "
                    "levels", ".2g")
