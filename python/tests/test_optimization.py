"""Optimal design in Python: the five-bar problem of seed 002 section 5.2 (docs/optimal-control.md)."""
import os

import numpy as np
import pytest

import articula

SOURCE = os.environ.get("ARTICULA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FIVE_BAR = os.path.join(SOURCE, "problems", "five_bar_design.yaml")


def test_problem_describes_its_parameters():
    p = articula.load_problem(FIVE_BAR)
    assert p.size == 2
    assert p.names == ["spring1.rest_length", "spring2.rest_length"]
    np.testing.assert_allclose(p.initial, [np.sqrt(5.0), np.sqrt(4.25)], rtol=1e-15)
    np.testing.assert_array_equal(p.lower, [0.9, 0.9])
    np.testing.assert_array_equal(p.upper, [7.0, 5.0])


def test_gradients_agree_and_match_the_command_line_cost():
    p = articula.load_problem(FIVE_BAR)
    J, adjoint = p.gradient()
    J2, direct = p.gradient(p.initial, method="direct")
    J3, fd = p.gradient(method="fd")
    assert J == J2 == J3 == p.cost()
    np.testing.assert_allclose(direct, adjoint, rtol=1e-9)
    np.testing.assert_allclose(fd, adjoint, rtol=1e-6)
    # the thesis's Table 5.2 gradient, to the 5e-4 the recovered geometry reaches
    np.testing.assert_allclose(adjoint, [-4.2281232, 3.2104307], rtol=5e-4)


def test_optimize_reaches_the_thesis_optimum():
    p = articula.load_problem(FIVE_BAR)
    r = p.optimize()
    assert r["converged"], r["status"]
    np.testing.assert_allclose(r["parameters"], [2.4319236, 1.8448689], rtol=1e-7)
    assert r["cost"] < 1e-20
    assert r["history"][0]["cost"] == pytest.approx(p.cost())


def test_bad_input_is_a_clear_error():
    p = articula.load_problem(FIVE_BAR)
    with pytest.raises(ValueError, match="gradient method"):
        p.gradient(method="complex")
    with pytest.raises(ValueError, match="b"):
        p.cost([1.0, 2.0, 3.0])
    with pytest.raises(articula.ModelError):
        articula.load_problem(os.path.join(SOURCE, "tests", "problems", "bad", "unknown_spring.yaml"))


LISSAJOUS_C = os.path.join(SOURCE, "problems", "five_bar_lissajous_c.yaml")


def test_track_compares_the_architectures():
    # Seed 002 chapter 7 with constant voltages of 0.5 V as the feed-forward: on the plant it cuts
    # the error of the loops alone; on the exact model the loops have almost nothing to correct.
    p = articula.load_problem(LISSAJOUS_C)
    r = p.track(np.full(p.size, 0.5))
    assert [run["architecture"] for run in r["runs"]] == [
        "feedback", "feedforward+feedback", "feedforward+feedback, exact plant"]
    n = len(r["t"])
    assert r["reference"].shape == (n, 3) and r["joint_reference"].shape == (2, n)
    alone, both, exact = r["runs"]
    assert alone["ok"] and both["ok"] and exact["ok"]
    assert alone["marker"].shape == (n, 3) and alone["feedback"].shape == (2, n)
    assert exact["ise"] < both["ise"] < alone["ise"]
    with pytest.raises(ValueError, match="tracking"):
        articula.load_problem(FIVE_BAR).track()


def test_optimize_runs_the_continuation_stages_first(tmp_path):
    # The five-bar design with a first stage on half the cost's weight, three evaluations each.
    problem = tmp_path / "staged.yaml"
    problem.write_text(open(FIVE_BAR).read().replace("model: ../models/", "model: " + os.path.join(SOURCE, "models") + "/")
                       .replace("type: marker_position", "name: still, type: marker_position")
                       + "\ncontinuation:\n  - weights: {still: 0.5}\n    optimizer: {max_evaluations: 3}\n")
    p = articula.load_problem(str(problem))
    r = p.optimize(max_evaluations=3)
    assert len(r["stages"]) == 1 and len(r["stages"][0]["history"]) <= 3
    # the problem as written starts where the stage ended
    assert r["history"][0]["cost"] == pytest.approx(p.cost(r["stages"][0]["parameters"]))
    assert p.optimize(max_evaluations=1, continuation=False)["stages"] == []


def test_optimize_reports_the_constraints():
    # problems/cart_stabilization_budget.yaml: the force's energy bounded by 80 N^2 s, which the
    # optimum spends (tests/optimize/test_constraints.cpp checks its optimality conditions).
    p = articula.load_problem(os.path.join(SOURCE, "problems", "cart_stabilization_budget.yaml"))
    r = p.optimize()
    assert r["converged"], r["status"]
    assert r["constraints"].shape == (1,)
    assert abs(r["constraints"][0] - 80.0) < 1e-6
    assert r["constraint_violation"] <= 1e-8
    assert all("constraint_violation" in rec for rec in r["history"])


def test_absolute_coordinates_give_the_same_gradient(tmp_path):
    # The five-bar design in the thesis's absolute coordinates (formulation: absolute, its own
    # adjoint): the same gradient as the joint-space one to the two runs' truncation (6.8e-9).
    problem = tmp_path / "absolute.yaml"
    problem.write_text(open(FIVE_BAR).read().replace("model: ../models/", "model: " + os.path.join(SOURCE, "models") + "/")
                       .replace("formulation: reference", "formulation: absolute"))
    J, absolute = articula.load_problem(str(problem)).gradient()
    J2, joint = articula.load_problem(FIVE_BAR).gradient()
    assert J == pytest.approx(J2, rel=1e-7)
    np.testing.assert_allclose(absolute, joint, rtol=1e-7)
