"""simulate(): the same numbers as the command line, every formulation and integrator, errors."""
import _thread
import csv
import subprocess
import threading
import time

import numpy as np
import pytest

import articula


def cli_results(cli, model_path, out_dir, options):
    """Runs `articula simulate` and returns results.csv as {column: array}."""
    subprocess.run([str(cli), "simulate", str(model_path), "--out", str(out_dir), "--quiet", "--no-html", *options],
                   check=True)
    with open(out_dir / "results.csv", newline="") as f:
        rows = list(csv.reader(f))
    # results.csv prints the shortest representation that reads back to the same double, so float()
    # recovers the numbers exactly.
    return {name: np.array([float(row[i]) for row in rows[1:]]) for i, name in enumerate(rows[0])}


def result_columns(model, r):
    """The result's arrays under the names of the results.csv columns."""
    columns = {"time": r.t}
    columns.update({name: r.q[:, i] for i, name in enumerate(model.coordinate_names)})
    columns.update({name: r.v[:, i] for i, name in enumerate(model.velocity_names)})
    for k, marker in enumerate(r.marker_names):
        columns.update({f"{marker}.{axis}": r.markers[:, k, i] for i, axis in enumerate("xyz")})
    columns.update(kinetic_energy=r.kinetic_energy, potential_energy=r.potential_energy,
                   total_energy=r.total_energy, constraint_position_error=r.position_error,
                   constraint_velocity_error=r.velocity_error)
    return columns


@pytest.mark.parametrize("cli_options, options", [
    (["--t-end", "2"], dict(t_end=2.0)),
    (["--t-end", "1", "--formulation", "hdca", "--integrator", "rk4", "--dt", "2e-3", "--output-dt", "0.05"],
     dict(t_end=1.0, formulation="hdca", integrator="rk4", dt=2e-3, output_dt=0.05)),
    (["--t-end", "0.5", "--formulation", "hybrid", "--integrator", "hht", "--basic-parameter", "0.1",
      "--tangent", "finite-difference", "--threads", "2"],
     dict(t_end=0.5, formulation="hybrid", integrator="hht", basic_parameter=0.1, tangent="finite-difference",
          threads=2)),
    (["--t-end", "0.5", "--formulation", "semi-recursive", "--rtol", "1e-6", "--atol", "1e-8",
      "--stabilization", "baumgarte"],
     dict(t_end=0.5, formulation="semi-recursive", rtol=1e-6, atol=1e-8, stabilization="baumgarte")),
], ids=["reference-rk45", "hdca-rk4", "hybrid-hht-finite-difference", "semi-recursive-baumgarte"])
def test_four_bar_equals_command_line(cli, models_dir, tmp_path, four_bar, cli_options, options):
    expected = cli_results(cli, models_dir / "four_bar.yaml", tmp_path, cli_options)
    r = articula.simulate(four_bar, **options)
    assert r.ok, r.error
    actual = result_columns(four_bar, r)
    assert list(actual) == list(expected)  # the same columns in the same order
    for name, column in expected.items():
        np.testing.assert_array_equal(actual[name], column, err_msg=name)


def test_result_figures(four_bar):
    r = articula.simulate(four_bar, t_end=2.0)
    assert r.ok and r.error is None
    assert (r.formulation, r.integrator) == ("reference", "rk45")
    assert r.t_reached == 2.0 and r.samples == 201 == len(r.t)
    assert r.q.shape == (201, 3) and r.v.shape == (201, 3) and r.markers.shape == (201, 3, 3)
    assert r.steps > 0 and r.evaluations > r.steps and r.wall_time > 0
    assert r.conservative and r.max_relative_energy_drift < 1e-6
    assert r.max_energy_drift == pytest.approx(np.max(np.abs(r.total_energy - r.total_energy[0])), rel=0, abs=1e-15)
    assert r.max_position_error < 1e-10 and r.assembly["constraint_rank"] == 2
    np.testing.assert_array_equal(r.marker("C"), r.markers[:, 1, :])
    with pytest.raises(KeyError):
        r.marker("nowhere")
    assert "ok" in repr(r)


def test_arrays_are_not_copies(four_bar):
    """The arrays wrap the buffers the run filled (numpy does not own their memory: nothing was
    copied), one buffer each."""
    r = articula.simulate(four_bar, t_end=0.1)
    for name in ("t", "q", "v", "markers", "total_energy"):
        array = getattr(r, name)
        assert array.flags["C_CONTIGUOUS"] and array.flags["WRITEABLE"] and not array.flags["OWNDATA"], name
    assert r.q.base is not r.v.base


def test_every_formulation_and_integrator_is_accepted(four_bar):
    double_pendulum = articula.models.chain(2)
    structural = [i["name"] for i in articula.integrators() if i["structural"]]
    ode = [i["name"] for i in articula.integrators() if not i["structural"]]
    assert set(ode) == {"euler", "heun", "rk4", "rk45"}
    for f in articula.formulations():
        model = four_bar if f["closed_loops"] else double_pendulum
        for integrator in structural if f["index3"] else ode:
            r = articula.simulate(model, formulation=f["name"], integrator=integrator, t_end=0.02, dt=1e-3)
            assert r.ok, (f["name"], integrator, r.error)
            assert r.formulation == f["name"] and r.integrator == integrator


@pytest.mark.parametrize("options, message", [
    (dict(formulation="lagrange"), "unknown formulation 'lagrange'"),
    (dict(integrator="rk3"), "unknown integrator 'rk3'"),
    (dict(formulation="aba"), "loop"),
    (dict(formulation="hybrid", integrator="rk4"), "hybrid"),
    (dict(tangent="exact"), "unknown tangent 'exact'"),
    (dict(stabilization="weak"), "unknown stabilization 'weak'"),
    (dict(t_end=0.0), "end time must be after the start time"),
    (dict(t_end=float("inf")), "must be finite"),
    (dict(output_dt=-1.0), "output interval"),
    (dict(rtol=0.0), "rtol"),
    (dict(integrator="newmark", basic_parameter=0.5), "basic parameter"),
    (dict(threads=0), "threads must be at least 1"),
    (dict(formulation="distributed", subsystems=0), "subsystems must be at least 1"),
    (dict(formulation="hdca", assembly_tree="deep"), "unknown assembly tree 'deep'"),
])
def test_bad_options_raise_value_error(four_bar, options, message):
    with pytest.raises(ValueError, match=message):
        articula.simulate(four_bar, **options)


def test_distributed_formulation_in_subsystems_matches_aba():
    # A spatial chain of 8 split into 4 subsystems (docs/distributed.md): the same motion as ABA to
    # round-off of 0.2 s of rk4 (the accelerations agree to 1e-10 relative, tests/simulation).
    chain = articula.models.chain(8, spatial=True)
    options = dict(integrator="rk4", dt=1e-3, t_end=0.2)
    aba = articula.simulate(chain, formulation="aba", **options)
    split = articula.simulate(chain, formulation="distributed", subsystems=4, **options)
    assert split.ok and split.formulation == "distributed"
    assert np.max(np.abs(split.q - aba.q)) < 1e-9


def test_serial_assembly_tree_matches_the_balanced_one():
    # hdca on a spatial chain of 8 with either assembly tree (dynamics/assembly_tree.hpp): the same
    # equations in another order, so the same motion to round-off over 0.2 s of rk4.
    chain = articula.models.chain(8, spatial=True)
    options = dict(formulation="hdca", integrator="rk4", dt=1e-3, t_end=0.2)
    balanced = articula.simulate(chain, **options)
    serial = articula.simulate(chain, assembly_tree="serial", **options)
    assert balanced.ok and serial.ok
    assert np.max(np.abs(serial.q - balanced.q)) < 1e-9


def test_failed_run_keeps_samples_and_error():
    model = articula.model_from_yaml_string("""
name: blowup
bodies:
  - {name: rod, mass: 1, com: [0.5, 0, 0], inertia: [0.001, 0.08, 0.08]}
joints:
  - {name: pin, type: revolute, parent: ground, child: rod, q: -1.5}
forces:
  - name: kick
    type: joint_force
    joint: pin
    magnitude: {type: table, time: [0, 0.5, 0.5000001], value: [0, 0, 1e308]}
""")
    r = articula.simulate(model, integrator="rk4", dt=1e-3, t_end=2.0)
    assert not r.ok
    assert "non-finite" in r.error and "joint 'pin'" in r.error
    assert 0.5 <= r.t_reached < 2.0
    assert 40 <= r.samples == len(r.t) < 200 and np.all(np.isfinite(r.q))


def test_gil_is_released_and_ctrl_c_stops_the_run():
    """A second thread runs while simulate() runs (it could not with the GIL held) and interrupts it
    as Ctrl-C would. Uninterrupted, the run would take a minute or more."""
    model = articula.models.chain(16, spatial=True)
    started = threading.Event()
    interrupted_at = []

    def interrupt():
        started.wait()
        time.sleep(0.3)
        interrupted_at.append(time.monotonic())
        _thread.interrupt_main()

    worker = threading.Thread(target=interrupt)
    worker.start()
    begin = time.monotonic()
    started.set()
    with pytest.raises(KeyboardInterrupt):
        articula.simulate(model, integrator="rk4", dt=1e-5, t_end=100.0, output_dt=1.0)
    end = time.monotonic()
    worker.join()
    assert begin < interrupted_at[0] < end
    assert end - interrupted_at[0] < 5.0
