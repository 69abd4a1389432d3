"""Loading models, their properties, and the errors of bad model input."""
import numpy as np
import pytest

import articula


def test_four_bar_properties(four_bar):
    assert four_bar.name == "four_bar"
    assert (four_bar.nq, four_bar.nv, four_bar.body_count) == (3, 3, 3)
    assert four_bar.body_names == ["crank", "rocker", "coupler"]  # parent before child
    assert four_bar.joint_names == ["A", "D", "B"]  # joint i moves body i
    assert four_bar.joint_types == ["revolute"] * 3
    assert four_bar.loop_names == ["C"]
    assert four_bar.constraint_count == 5
    assert four_bar.marker_names == ["B", "C", "coupler_mid"]
    assert four_bar.coordinate_names == ["A.q", "D.q", "B.q"]
    assert four_bar.velocity_names == ["A.v", "D.v", "B.v"]
    np.testing.assert_array_equal(four_bar.gravity, [0.0, -9.81, 0.0])
    np.testing.assert_array_equal(four_bar.q0, [np.pi / 3, 1.01, -0.84])
    np.testing.assert_array_equal(four_bar.v0, np.zeros(3))
    assert "four_bar" in repr(four_bar)
    # Planar: of the loop's 5 equations 2 are independent, leaving 1 degree of freedom.
    assert "constraint rank 2 at the assembled configuration: 1 degrees of freedom" in four_bar.info()


def test_quaternion_joint_sizes(rssr):
    assert (rssr.nq, rssr.nv) == (6, 5)  # the spherical joint: 4 coordinates, 3 velocities
    assert rssr.joint_types == ["revolute", "revolute", "spherical"]
    assert rssr.coordinate_names == ["A.q", "D.q", "B.q0", "B.q1", "B.q2", "B.q3"]
    assert rssr.velocity_names == ["A.v", "D.v", "B.v0", "B.v1", "B.v2"]


def test_yaml_round_trip(four_bar):
    again = articula.model_from_yaml_string(four_bar.to_yaml())
    assert again.name == four_bar.name
    assert again.joint_names == four_bar.joint_names
    np.testing.assert_array_equal(again.q0, four_bar.q0)


def test_generators():
    chain = articula.models.chain(5, spatial=True)
    assert (chain.nq, chain.nv) == (5, 5)
    assert articula.models.n_four_bar(3).loop_names == ["loop_B1", "loop_B2", "loop_B3"]
    assert articula.models.rssr(rod=True).name == "rssr_rod"
    assert articula.models.rssr_bank(2).name == "rssr_bank2"
    with pytest.raises(ValueError, match="at least one link"):
        articula.models.chain(0)


def test_missing_file_names_it(tmp_path):
    missing = tmp_path / "nowhere.yaml"
    with pytest.raises(articula.ModelError, match="nowhere.yaml") as caught:
        articula.load_model(missing)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, articula.Error)
    assert caught.value.file == str(missing)


def test_malformed_yaml_names_file_and_line(bad_models_dir):
    path = bad_models_dir / "syntax_error.yaml"
    with pytest.raises(articula.ModelError) as caught:
        articula.load_model(str(path))
    error = caught.value
    assert str(path) in str(error)
    assert error.file == str(path) and error.line == 3
    assert f"{path}:3:" in str(error)


def test_invalid_model_from_string_names_label_line_and_element():
    text = """
name: broken
bodies:
  - {name: rod, mass: -1, com: [0.5, 0, 0], inertia: [0.001, 0.08, 0.08]}
joints:
  - {name: pin, type: revolute, parent: ground, child: rod}
"""
    with pytest.raises(articula.ModelError) as caught:
        articula.model_from_yaml_string(text, label="inline.yaml")
    error = caught.value
    assert error.file == "inline.yaml" and error.line == 4
    assert "rod" in error.element and "mass" in str(error)


def test_model_is_not_constructible_from_python():
    with pytest.raises(TypeError):
        articula.Model()


def test_urdf_robot_loads_like_its_yaml_conversion(models_dir):
    arm = articula.load_model(models_dir / "arm6.urdf")
    assert (arm.name, arm.nq, arm.nv, arm.body_count) == ("arm6", 6, 6, 6)
    assert arm.warnings == []
    back = articula.model_from_yaml_string(arm.to_yaml(), "arm6.yaml")
    q = np.linspace(-0.5, 0.5, 6)
    np.testing.assert_allclose(articula.crba(back, q), articula.crba(arm, q), rtol=0, atol=1e-12)


def test_urdf_errors_are_model_errors(tmp_path):
    bad = tmp_path / "bad.urdf"
    bad.write_text('<robot name="r"><link name="a"/><link name="b"/></robot>')
    with pytest.raises(articula.ModelError, match="bad.urdf.*not a valid URDF robot"):
        articula.load_model(bad)
