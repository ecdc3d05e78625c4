"""Paper C's theory on a run's own data: the closed forms of :mod:`grok_lib.paper_c.theory` evaluated on the
run's sample spectrum, initial error D_0 and record steps (the curves and crossing times the trainer,
:mod:`grok_lib.paper_c.simulate`, stores beside the simulated ones)."""

from __future__ import annotations

from . import theory
from .config import LinearEstimatorConfig


def theory_curves(config: LinearEstimatorConfig, s, d0_t, teacher_t, h_t, noise_sq, steps) -> dict:
    """The theory of this run on its record steps, from its own sample spectrum and D_0.

    - ``theory_train_loss``/``theory_gen_loss``: the exact gradient-flow dynamics (the paper's
      e^{-4 eta Sigma t}); for the nets with the paper's rescaled rate (eta -> eta/(2 d_out^2)).
    - ``gd_train_loss``/``gd_gen_loss``: the same with discrete GD's (1 - eta Lambda)^t (linear only).
    - ``mp_train_loss``/``mp_gen_loss``: the Marchenko-Pastur approximation, l0 = this run's
      L_gen(0) (gamma = 0, linear, without label noise).
    - ``noise_pred_train_loss``/``noise_pred_gen_loss``: the rebuttal's label-noise prediction, the
      noiseless exact losses + sigma_n^2 and unchanged (with label noise); ``mp_noise_*_loss``: the
      book's MP theory that keeps the fitted noise (:func:`theory.mp_noise_losses`; d_out = 1, gamma = 0).
    - ``theory_train_acc``/``theory_test_acc`` (and ``mp_*_acc``): the accuracy laws at those losses
      (the test accuracy with noisy test labels at L_gen + sigma_n^2).
    """
    c = config
    eta = c.eta if c.model == "linear" else theory.lr_two_layer_as_linear(c.eta, c.d_out)
    out = {}
    tr, gen = theory.exact_losses(steps, s, d0_t, teacher_t, h_t, noise_sq, eta, c.gamma, c.d_out, discrete=False)
    out["theory_train_loss"], out["theory_gen_loss"] = tr, gen
    test_extra = c.label_noise**2 if c.test_label_noise else 0.0
    out["theory_train_acc"] = theory.accuracy(tr, c.eps, c.d_out)
    out["theory_test_acc"] = theory.accuracy(gen + test_extra, c.eps, c.d_out)
    if c.model != "linear":
        return out
    out["gd_train_loss"], out["gd_gen_loss"] = theory.exact_losses(steps, s, d0_t, teacher_t, h_t, noise_sq, eta,
                                                                   c.gamma, c.d_out, discrete=True)
    if c.label_noise > 0:
        clean_tr, clean_gen = theory.exact_losses(steps, s, d0_t, eta=eta, gamma=c.gamma, d_out=c.d_out)
        out["noise_pred_train_loss"] = theory.noise_train_loss(clean_tr, c.label_noise)
        out["noise_pred_gen_loss"] = clean_gen
        if c.gamma == 0 and c.d_out == 1:
            l0 = float((d0_t**2).sum())
            out["mp_noise_train_loss"], out["mp_noise_gen_loss"] = theory.mp_noise_losses(steps, c.lam_eff, eta,
                                                                                          c.label_noise, l0)
    if c.gamma == 0 and c.label_noise == 0:
        l0 = float((d0_t**2).sum() / c.d_out)
        mtr, mgen = theory.mp_losses(steps, c.lam_eff, eta, c.d_out, l0)
        out["mp_train_loss"], out["mp_gen_loss"] = mtr, mgen
        out["mp_train_acc"] = theory.accuracy(mtr, c.eps, c.d_out)
        out["mp_test_acc"] = theory.accuracy(mgen, c.eps, c.d_out)
    return out


def theory_crossings(config: LinearEstimatorConfig, s, d0_t) -> list[dict]:
    """Crossing times (continuous) of the exact gradient-flow losses and of MP at every threshold,
    at the level where the accuracy law gives GROK_ACC (gamma = 0, no label noise; else empty)."""
    c = config
    if c.gamma != 0 or c.label_noise != 0:
        return []
    eta = c.eta if c.model == "linear" else theory.lr_two_layer_as_linear(c.eta, c.d_out)
    levels = [theory.loss_at_accuracy(theory.GROK_ACC, e, c.d_out) for e in c.all_eps]
    t_max = 100.0 * c.steps
    exact = theory.exact_crossing_times(s, d0_t, eta, levels, c.d_out, t_max=t_max)
    rows = [{"eps": e, "theory_t_train": a, "theory_t_test": b} for e, (a, b) in zip(c.all_eps, exact)]
    if c.model == "linear":
        l0 = float((d0_t**2).sum() / c.d_out)
        mp = theory.mp_crossing_times(c.lam_eff, eta, levels, c.d_out, l0, t_max=t_max)
        for row, (a, b) in zip(rows, mp):
            row |= {"mp_t_train": a, "mp_t_test": b}
    return rows
