"""Shared fixtures: the source tree, the command-line tool and models.

ctest sets PYTHONPATH (the built module), ARTICULA_CLI (the built `articula` binary) and
ARTICULA_SOURCE_DIR; run by hand, the defaults assume a build in build-py/.
"""
import os
import pathlib

import pytest

import articula

SOURCE_DIR = pathlib.Path(os.environ.get("ARTICULA_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLI = pathlib.Path(os.environ.get("ARTICULA_CLI", SOURCE_DIR / "build-py" / "bin" / "articula"))


@pytest.fixture
def models_dir():
    return SOURCE_DIR / "models"


@pytest.fixture
def bad_models_dir():
    return SOURCE_DIR / "tests" / "models" / "bad"


@pytest.fixture
def cli():
    if not CLI.exists():
        pytest.fail(f"the articula command line is not built: {CLI} (set ARTICULA_CLI)")
    return CLI


@pytest.fixture
def four_bar(models_dir):
    return articula.load_model(models_dir / "four_bar.yaml")


@pytest.fixture
def rssr():
    """A spatial closed loop with a spherical (quaternion) joint: nq != nv."""
    return articula.models.rssr()
