// Models: loading, the read-only Model class and the parametric example models.
#include <filesystem>
#include <numbers>
#include <sstream>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "arrays.hpp"
#include "articula/io/csv_writer.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "model_handle.hpp"

namespace articula::python {

namespace {

std::unique_ptr<ModelHandle> handleOf(Model model) { return std::make_unique<ModelHandle>(std::move(model)); }

// Names of bodies 1..n (the ground, body 0, is left out), of their parent joints, and so on.
template <class Element, class Name>
std::vector<std::string> names(const std::vector<Element>& elements, std::size_t first, Name name) {
  std::vector<std::string> out;
  for (std::size_t i = first; i < elements.size(); ++i) out.push_back(name(elements[i]));
  return out;
}

// The results.csv column names of the joint coordinates (offset 1, after "time") or velocities:
// "A.q", "B.q2", ... as the command line writes them.
std::vector<std::string> coordinateNames(const Model& model, bool positions) {
  const std::vector<std::string> columns = CsvWriter::columns(model);
  const auto first = columns.begin() + 1 + (positions ? 0 : model.nq);
  return {first, first + (positions ? model.nq : model.nv)};
}

std::string modelRepr(const Model& model) {
  std::ostringstream s;
  s << "<articula.Model '" << model.name << "': " << model.bodyCount() << " bodies, nq=" << model.nq
    << ", nv=" << model.nv << ", " << model.constraintCount() << " constraint equations>";
  return s.str();
}

void bindModelClass(py::module_& m) {
  py::class_<ModelHandle>(m, "Model",
                          "A validated, immutable multibody model: bodies on a spanning tree of joints, loop "
                          "closures, force elements and markers. Made by load_model, model_from_yaml_string or "
                          "the generators in articula.models. Body 0, the ground, is not listed.")
      .def_property_readonly("name", [](const ModelHandle& h) { return h.model.name; }, "The model's name.")
      .def_property_readonly(
          "gravity", [](const ModelHandle& h) { return toArray(h.model.gravity); }, "Gravity (3,), m/s^2, world frame.")
      .def_property_readonly("nq", [](const ModelHandle& h) { return h.model.nq; },
                             "Number of position coordinates q (a quaternion counts 4).")
      .def_property_readonly("nv", [](const ModelHandle& h) { return h.model.nv; },
                             "Number of velocity coordinates v: the degrees of freedom of the spanning tree.")
      .def_property_readonly("body_count", [](const ModelHandle& h) { return h.model.bodyCount(); },
                             "Number of bodies, the ground not counted.")
      .def_property_readonly("constraint_count", [](const ModelHandle& h) { return h.model.constraintCount(); },
                             "Scalar constraint equations of the loop closures and prescribed motions.")
      .def_property_readonly(
          "body_names",
          [](const ModelHandle& h) { return names(h.model.bodies, 1, [](const Body& b) { return b.name; }); },
          "Body names, parent before child (body i is the child of joint i).")
      .def_property_readonly(
          "joint_names",
          [](const ModelHandle& h) { return names(h.model.joints, 1, [](const Joint& j) { return j.name; }); },
          "Names of the tree joints; joint i moves body i.")
      .def_property_readonly(
          "joint_types",
          [](const ModelHandle& h) {
            return names(h.model.joints, 1, [](const Joint& j) { return std::string(jointTypeName(j.type)); });
          },
          "Types of the tree joints ('revolute', 'spherical', ...), as in the model file.")
      .def_property_readonly(
          "loop_names",
          [](const ModelHandle& h) { return names(h.model.loops, 0, [](const LoopConstraint& l) { return l.name; }); },
          "Names of the loop-closure constraints.")
      .def_property_readonly(
          "marker_names",
          [](const ModelHandle& h) { return names(h.model.markers, 0, [](const Marker& k) { return k.name; }); },
          "Names of the markers, in the order of SimulationResult.markers.")
      .def_property_readonly(
          "coordinate_names", [](const ModelHandle& h) { return coordinateNames(h.model, true); },
          "Name of each entry of q, as the columns of results.csv: '<joint>.q', or '<joint>.q<k>' for joints "
          "with several coordinates.")
      .def_property_readonly(
          "velocity_names", [](const ModelHandle& h) { return coordinateNames(h.model, false); },
          "Name of each entry of v: '<joint>.v' or '<joint>.v<k>'.")
      .def_property_readonly("q0", [](const ModelHandle& h) { return toArray(h.model.q0); },
                             "Initial positions as given in the model (before assembly), (nq,), m or rad.")
      .def_property_readonly("v0", [](const ModelHandle& h) { return toArray(h.model.v0); },
                             "Initial velocities as given in the model, (nv,), m/s or rad/s.")
      .def_property_readonly("warnings", [](const ModelHandle& h) { return h.model.warnings; },
                             "What the loader could map only approximately (e.g. a URDF mesh that was not found).")
      .def(
          "info",
          [](const ModelHandle& h) {
            std::ostringstream s;
            cli::printModelInfo(s, h.model);
            return s.str();
          },
          "The report of `articula info`: bodies, joints, loops, force elements, degrees of freedom (with loops, "
          "at the assembled configuration).")
      .def(
          "to_yaml",
          [](const ModelHandle& h) {
            std::ostringstream s;
            writeModelYaml(h.model, s);
            return s.str();
          },
          "The model in Articula's YAML format; model_from_yaml_string(text) loads it back.")
      .def("__repr__", [](const ModelHandle& h) { return modelRepr(h.model); });
}

void bindGenerators(py::module_& m) {
  py::module_ models = m.def_submodule("models", "The parametric example models of `articula generate`.");
  models.def(
      "chain",
      [](int links, bool spatial) { return checkedArguments([&] { return handleOf(makeChain(links, spatial)); }); },
      py::arg("links"), py::arg("spatial") = false,
      "N-link pendulum chain (boxes 0.5 m long, 1 kg): revolute joints about z (planar) or cycling z, y, x "
      "(spatial); q1 = 0.3 rad, the others 0.1 rad, at rest.");
  models.def(
      "n_four_bar",
      [](int fourBars, double crankAngle, double crankSpeed) {
        return checkedArguments([&] { return handleOf(makeNFourBar(fourBars, crankAngle, crankSpeed)); });
      },
      py::arg("four_bars"), py::arg("crank_angle") = std::numbers::pi / 2, py::arg("crank_speed") = -1.0,
      "IFToMM benchmark A02: `four_bars` parallelograms of 1 m, 1 kg rods in a row; the cranks start at "
      "crank_angle (rad) turning at crank_speed (rad/s).");
  models.def(
      "rssr",
      [](double crankAngle, bool rod) { return checkedArguments([&] { return handleOf(makeRssr(crankAngle, rod)); }); },
      py::arg("crank_angle") = 0.0, py::arg("rod") = false,
      "Spatial RSSR crank-rocker (one closed loop), assembled at crank_angle (rad); rod=True makes the coupler "
      "a massless distance constraint.");
  models.def(
      "rssr_bank", [](int loops) { return checkedArguments([&] { return handleOf(makeRssrBank(loops)); }); },
      py::arg("loops"), "`loops` RSSR loops on one crankshaft (a spatial mechanism with many loops).");
}

}  // namespace

void bindModel(py::module_& m) {
  bindModelClass(m);
  m.def(
      "load_model", [](const std::filesystem::path& path) { return handleOf(loadModel(path.string())); },
      py::arg("path"),
      "Reads and validates a model file: Articula's YAML format (docs/model-format.md), or a URDF robot when the "
      "name ends in .urdf (the mapping is in the same document). Raises ModelError naming the file, line, "
      "column and element of the first problem, or the file that cannot be read.");
  m.def(
      "model_from_yaml_string",
      [](const std::string& text, const std::string& label) { return handleOf(parseModelYaml(text, label).build()); },
      py::arg("text"), py::arg("label") = "<string>",
      "Parses and validates a model given as YAML text; `label` stands for the file name in error messages. "
      "This is how Python builds models: write the YAML (a string or a dict dumped by a YAML library).");
  bindGenerators(m);
}

}  // namespace articula::python
