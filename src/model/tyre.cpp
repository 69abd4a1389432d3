#include "articula/model/tyre.hpp"

#include <cmath>

namespace articula {

// Representative values, not a measured tyre (docs/vehicles.md): peak friction about 1, a
// longitudinal slip stiffness of about 20 Fz per unit slip, a cornering stiffness of about
// 16 Fz0 per radian at the nominal load, friction falling slightly with load.
MagicFormula MagicFormula::passengerCar() {
  MagicFormula m;
  m.FNOMIN = 4000.0;
  m.PCX1 = 1.65, m.PDX1 = 1.0, m.PDX2 = -0.05, m.PEX1 = -0.5, m.PEX2 = 0.0, m.PEX3 = 0.0;
  m.PKX1 = 20.0, m.PKX2 = 0.0, m.PKX3 = 0.0;
  m.PCY1 = 1.3, m.PDY1 = 0.95, m.PDY2 = -0.05, m.PEY1 = -1.0, m.PEY2 = 0.0;
  m.PKY1 = 17.0, m.PKY2 = 1.5;
  m.RBX1 = 12.0, m.RBX2 = 10.0, m.RCX1 = 1.0, m.RBY1 = 10.0, m.RBY2 = 10.0, m.RCY1 = 1.0;
  m.QBZ1 = 8.0, m.QDZ1 = 0.1;
  return m;
}

// Representative values, not a measured tyre: lower friction and relative cornering stiffness
// than a car tyre, a nominal load of 30 kN.
MagicFormula MagicFormula::truck() {
  MagicFormula m;
  m.FNOMIN = 30000.0;
  m.PCX1 = 1.6, m.PDX1 = 0.8, m.PDX2 = -0.1, m.PEX1 = 0.0, m.PEX2 = 0.0, m.PEX3 = 0.0;
  m.PKX1 = 15.0, m.PKX2 = 0.0, m.PKX3 = 0.0;
  m.PCY1 = 1.3, m.PDY1 = 0.75, m.PDY2 = -0.1, m.PEY1 = -0.5, m.PEY2 = 0.0;
  m.PKY1 = 10.0, m.PKY2 = 2.5;
  m.RBX1 = 10.0, m.RBX2 = 8.0, m.RCX1 = 1.0, m.RBY1 = 8.0, m.RBY2 = 8.0, m.RCY1 = 1.0;
  m.QBZ1 = 8.0, m.QDZ1 = 0.08;
  return m;
}

const std::array<MagicFormulaCoefficient, 25>& magicFormulaCoefficients() {
  using M = MagicFormula;
  static const std::array<MagicFormulaCoefficient, 25> list{{
      {"FNOMIN", &M::FNOMIN}, {"PCX1", &M::PCX1}, {"PDX1", &M::PDX1}, {"PDX2", &M::PDX2}, {"PEX1", &M::PEX1},
      {"PEX2", &M::PEX2},     {"PEX3", &M::PEX3}, {"PKX1", &M::PKX1}, {"PKX2", &M::PKX2}, {"PKX3", &M::PKX3},
      {"PCY1", &M::PCY1},     {"PDY1", &M::PDY1}, {"PDY2", &M::PDY2}, {"PEY1", &M::PEY1}, {"PEY2", &M::PEY2},
      {"PKY1", &M::PKY1},     {"PKY2", &M::PKY2}, {"RBX1", &M::RBX1}, {"RBX2", &M::RBX2}, {"RCX1", &M::RCX1},
      {"RBY1", &M::RBY1},     {"RBY2", &M::RBY2}, {"RCY1", &M::RCY1}, {"QBZ1", &M::QBZ1}, {"QDZ1", &M::QDZ1},
  }};
  return list;
}

std::string magicFormulaProblem(const MagicFormula& m) {
  for (const auto& c : magicFormulaCoefficients())
    if (!std::isfinite(m.*c.member)) return std::string(c.name) + " is not a finite number";
  auto positive = [](double x, const char* name, const char* why) -> std::string {
    return x > 0.0 ? std::string() : std::string(name) + " must be positive (" + why + ")";
  };
  for (const std::string& problem :
       {positive(m.FNOMIN, "FNOMIN", "the nominal load"), positive(m.PCX1, "PCX1", "the shape factor Cx"),
        positive(m.PDX1, "PDX1", "the friction coefficient at the nominal load"),
        positive(m.PKX1, "PKX1", "the longitudinal slip stiffness at the nominal load"),
        positive(m.PCY1, "PCY1", "the shape factor Cy"), positive(m.PDY1, "PDY1", "the friction coefficient at the nominal load"),
        positive(m.PKY1, "PKY1", "the cornering stiffness; an ISO-convention .tir file's negative value changes sign here"),
        positive(m.PKY2, "PKY2", "the load at which the cornering stiffness peaks, in units of FNOMIN")})
    if (!problem.empty()) return problem;
  if (!(m.PCX1 < 2.0) || !(m.PCY1 < 2.0)) return "PCX1 and PCY1 must be below 2 (beyond, the curve has no peak)";
  if (!(m.RCX1 > 0.0 && m.RCX1 <= 1.0) || !(m.RCY1 > 0.0 && m.RCY1 <= 1.0))
    return "RCX1 and RCY1 must lie in (0, 1], which keeps the combined-slip weights positive";
  if (m.RBX1 < 0.0 || m.RBY1 < 0.0 || m.QBZ1 < 0.0 || m.QDZ1 < 0.0) return "RBX1, RBY1, QBZ1 and QDZ1 must not be negative";
  return {};
}

}  // namespace articula
