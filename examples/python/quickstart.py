"""Articula from Python: load the four-bar, simulate it, look at the results.

Run from the repository root after building (docs/python.md):
    PYTHONPATH=build/python /usr/bin/python3 examples/python/quickstart.py
"""
import pathlib

import numpy as np

import articula

# %% Load a model: a planar four-bar linkage, three bars and one loop closure.
root = pathlib.Path(__file__).resolve().parents[2]
model = articula.load_model(root / "models" / "four_bar.yaml")
print(model)
print("coordinates:", model.coordinate_names)

# %% Simulate 5 s with the default formulation (reference, for a closed loop) and rk45.
result = articula.simulate(model, t_end=5.0, output_dt=0.01)
if not result.ok:
    raise SystemExit(f"the run failed: {result.error}")
print(result)
print(f"energy drift: {result.max_energy_drift:.3e} J ({result.max_relative_energy_drift:.3e} relative)")
print(f"largest constraint error: {result.max_position_error:.3e} m")

# %% The same run with the Hamiltonian divide-and-conquer algorithm: how far apart are they?
hdca = articula.simulate(model, formulation="hdca", t_end=5.0, output_dt=0.01)
print(f"hdca vs reference, largest difference in q: {np.max(np.abs(hdca.q - result.q)):.3e} rad")

# %% Dynamics kernels at the last sample: mass matrix and joint-space momenta.
q, v = result.q[-1], result.v[-1]
M = articula.crba(model, q)
print("M(q) =\n", M)
print("p = M v =", articula.hdca_momenta(model, q, v))

# %% Plot the coupler's midpoint, if matplotlib is there.
try:
    import matplotlib.pyplot as plt
except ImportError:
    print("(matplotlib not installed: no plot)")
else:
    path = result.marker("coupler_mid")
    plt.plot(path[:, 0], path[:, 1])
    plt.gca().set_aspect("equal")
    plt.xlabel("x (m)")
    plt.ylabel("y (m)")
    plt.title("four-bar: path of the coupler midpoint")
    plt.show()
