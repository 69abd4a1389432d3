"""The dynamics kernels on numpy arrays: RNEA, CRBA, ABA and the HDCA."""
import numpy as np
import pytest

import articula


@pytest.fixture
def spatial_chain():
    return articula.models.chain(6, spatial=True)


def random_state(model, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, model.nq), rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)


def test_aba_inverts_rnea(spatial_chain):
    q, v, tau = random_state(spatial_chain, 1)
    vdot = articula.aba(spatial_chain, q, v, tau)
    np.testing.assert_allclose(articula.rnea(spatial_chain, q, v, vdot), tau, rtol=0, atol=1e-10)


def test_crba_is_symmetric_and_matches_rnea(spatial_chain):
    q, v, a = random_state(spatial_chain, 2)
    M = articula.crba(spatial_chain, q)
    assert M.shape == (spatial_chain.nv, spatial_chain.nv)
    np.testing.assert_array_equal(M, M.T)
    assert np.all(np.linalg.eigvalsh(M) > 0)
    bias = articula.rnea(spatial_chain, q, v, np.zeros(spatial_chain.nv))
    tau = articula.rnea(spatial_chain, q, v, a)
    np.testing.assert_allclose(M @ a + bias, tau, rtol=0, atol=1e-10)
    np.testing.assert_allclose(articula.aba(spatial_chain, q, v, tau), a, rtol=0, atol=1e-10)


def test_quaternion_joints(rssr):
    """nq != nv: q carries the spherical joint's quaternion (normalised by the kernels' callers)."""
    q = rssr.q0.copy()
    v = np.linspace(-0.5, 0.5, rssr.nv)
    tau = np.linspace(1.0, 2.0, rssr.nv)
    vdot = articula.aba(rssr, q, v, tau)
    np.testing.assert_allclose(articula.rnea(rssr, q, v, vdot), tau, rtol=0, atol=1e-9)


def test_hdca_momenta_are_mass_matrix_times_velocities(spatial_chain):
    q, v, _ = random_state(spatial_chain, 3)
    p = articula.hdca_momenta(spatial_chain, q, v)
    np.testing.assert_allclose(p, articula.crba(spatial_chain, q) @ v, rtol=0, atol=1e-12)
    np.testing.assert_allclose(articula.hdca_velocities(spatial_chain, 0.0, q, p), v, rtol=0, atol=1e-10)


def test_hdca_derivatives_agree_with_aba(spatial_chain):
    """On a tree without force elements: qdot = v and pdot = d(M v)/dt = M vdot + (dM/dt) v."""
    q, v, _ = random_state(spatial_chain, 4)
    p = articula.hdca_momenta(spatial_chain, q, v)
    qdot, pdot = articula.hdca_derivatives(spatial_chain, 0.0, q, p)
    np.testing.assert_allclose(qdot, v, rtol=0, atol=1e-10)  # revolute joints: qdot = v
    vdot = articula.aba(spatial_chain, q, v, np.zeros(spatial_chain.nv))
    h = 1e-6
    Mdot = (articula.crba(spatial_chain, q + h * v) - articula.crba(spatial_chain, q - h * v)) / (2 * h)
    np.testing.assert_allclose(pdot, articula.crba(spatial_chain, q) @ vdot + Mdot @ v, rtol=0, atol=1e-6)


def test_arguments_accept_lists_and_integers(spatial_chain):
    n = spatial_chain.nv
    from_lists = articula.aba(spatial_chain, [0] * n, [0] * n, [1] * n)
    np.testing.assert_array_equal(from_lists, articula.aba(spatial_chain, np.zeros(n), np.zeros(n), np.ones(n)))


def test_wrong_length_names_argument_and_size(rssr):
    q, v = rssr.q0, np.zeros(rssr.nv)
    with pytest.raises(ValueError, match=rf"aba: argument 'q' must have {rssr.nq} entries \(model.nq\), got {rssr.nv}"):
        articula.aba(rssr, np.zeros(rssr.nv), v, v)
    with pytest.raises(ValueError, match=rf"rnea: argument 'a' must have {rssr.nv} entries \(model.nv\), got 2"):
        articula.rnea(rssr, q, v, [1.0, 2.0])
    with pytest.raises(ValueError, match=r"hdca_derivatives: argument 'p'"):
        articula.hdca_derivatives(rssr, 0.0, q, np.zeros(rssr.nv + 1))
    with pytest.raises(ValueError, match=r"crba: argument 'q' must be one-dimensional"):
        articula.crba(rssr, q.reshape(1, -1))
    with pytest.raises(TypeError, match=r"hdca_momenta: argument 'v' must be an array of numbers, not str"):
        articula.hdca_momenta(rssr, q, "fast")


def test_results_are_new_arrays(spatial_chain):
    """Each call returns its own array: the model's buffers never leak out."""
    q, v, tau = random_state(spatial_chain, 5)
    first = articula.aba(spatial_chain, q, v, tau)
    kept = first.copy()
    articula.aba(spatial_chain, q, -v, -tau)
    np.testing.assert_array_equal(first, kept)
