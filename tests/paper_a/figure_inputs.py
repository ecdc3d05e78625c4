"""What Part A's figures are drawn from in the image tests (``tests/test_figure_images.py``): each chapter's runs
and each recorded set, synthetic (no training: the same image on every CPU), in the shape its chapter declares.
A new figure of an existing chapter needs nothing here; a new chapter or recorded set needs one entry."""

from synthetic import dln_sweep, fig1_sweep, paper_a_sweep

#: chapter (its notebook's stem) -> its runs
RUNS = {
    "fig1_loss_curves": fig1_sweep,
    "fig2_embedding_geometry": paper_a_sweep,
    "fig3_stable_rank": paper_a_sweep,
    "gradient_hierarchy": paper_a_sweep,
    "activation_patterns": paper_a_sweep,
    "deep_linear_clocks": dln_sweep,
}

#: recorded set -> its runs
SETS = {
    "paper_unordered": paper_a_sweep,
    "paper_ordered": lambda: paper_a_sweep()[::-1],
    "default": paper_a_sweep,
    "init_scaled": lambda: paper_a_sweep()[1:],
}
