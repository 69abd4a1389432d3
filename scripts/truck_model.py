#!/usr/bin/env python3
"""Writes models/truck.yaml: a 5-axle semi-trailer truck like seed 004's (section 4): a 4x2 tractor
(steered front axle, one drive axle) and a tri-axle semi-trailer, ten wheels.

    python3 scripts/truck_model.py > models/truck.yaml

The layout, the masses and the suspension parameters are the constants below; the script solves
the static equilibrium (the tractor's and the semi-trailer's vertical force and pitch moment
balances) and sizes the suspension so that the design position *is* that equilibrium:

- every air spring's gauge pressure is its static load over its effective area at the design
  length (what a ride-height valve does);
- every leaf spring's rest length is its design length plus static load / rate;
- every wheel centre is R0 - load / k_tyre above the road.

So a truck standing still in the written state does not move (tests/simulation/test_truck.cpp).
docs/vehicles.md ("The truck") describes the model; the numbers are representative of the
class, not of a particular vehicle (seed 004 publishes none).
"""
import math

G = 9.81
SPEED = 15.0  # m/s, 54 km/h
# The slalom: the front wheels' steer angle A sin(2 pi f t).
STEER_AMPLITUDE = 0.04  # rad at the road wheels
STEER_FREQUENCY = 0.4   # Hz: a cone every V / (2 f) = 18.75 m

# Tyres, one per wheel end: the drive axle's twin tyres lumped into one of twice the stiffness.
R0, C_TYRE, F_ROLL = 0.5, 1000.0, 0.006
K_TYRE = {"front": 1.0e6, "drive": 2.0e6, "trailer": 1.0e6}

# Tractor: chassis frame at its centre of mass, H_TRACTOR above the road.
# X_REAR lists the drive axles (alike, equally loaded): one for seed 004's five axles; a tandem
# (two entries) makes the six-axle 6x4 variant.
M_CHASSIS, I_CHASSIS, H_TRACTOR = 5800.0, (4100.0, 16900.0, 17600.0), 1.1
# The cab: a rigid body on its own free joint above the chassis, its frame CAB_ORIGIN (chassis x,
# z) at the mounts' upper ends, its centre of mass CAB_COM_Z above. Four vertical spring-dampers
# (CAB_MOUNT_X front and rear, +-CAB_MOUNT_Y) CAB_MOUNT_LENGTH long carry it; three horizontal
# rods (spring-dampers CAB_ROD long, unloaded at rest), two lateral at the mounts' x and one
# longitudinal, hold it sideways, fore and aft and in yaw.
M_CAB, I_CAB, CAB_ORIGIN, CAB_COM_Z = 1200.0, (900.0, 1000.0, 800.0), (2.0, 0.3), 1.0
CAB_MOUNT_X, CAB_MOUNT_Y, CAB_MOUNT_LENGTH = (0.6, -0.8), 0.7, 0.15
CAB_MOUNT_RATE, CAB_MOUNT_DAMPING, CAB_ROD, CAB_ROD_RATE, CAB_ROD_DAMPING = 6.0e4, 3000.0, 0.4, 3.0e5, 6000.0
X_FRONT, X_REAR = 1.8, (-1.8,)
KINGPIN = (-1.3, 1.25)  # world x, z of the fifth wheel's centre
# Semi-trailer: its frame at the kingpin; centre of mass 6.5 m behind it, 1.7 m up.
M_TRAILER, I_TRAILER, TRAILER_COM = 22000.0, (26000.0, 354000.0, 350000.0), (-6.5, 1.7)
X_TRAILER = tuple(KINGPIN[0] + dx for dx in (-9.5, -10.8, -12.1))

# Axle linkage (relative to the axle centre): a central trailing arm from a pivot ARM ahead, a
# ball joint at the axle centre; two torque rods ROD_Y to the sides, ROD_Z above, parallel to the
# arm; springs at SPRING_Y, from SPRING_Z on the axle, DESIGN_LENGTH long and vertical.
ARM, ROD_Y, ROD_Z = 0.6, 0.4, 0.2
SPRING_Y, SPRING_Z, DESIGN_LENGTH = 0.5, 0.15, 0.3
TRACK_HALF = 1.0
# Anti-roll bar: two half bars hinged about y at BAR_X ahead of and BAR_Z above the axle centre,
# joined by a torsion spring; levers BAR_X long back to droplinks at +-BAR_Y down to the axle.
BAR_X, BAR_Z, BAR_Y = 0.35, 0.45, 0.6
DROPLINK = BAR_Z - SPRING_Z
# Front axle steering: kingpins at +-KINGPIN_Y, track rod arms TRACK_ARM behind, drag link from a
# pitman arm (PITMAN_ARM long, pivot PITMAN_X ahead of the axle) to the left knuckle's upper arm.
KINGPIN_Y, TRACK_ARM = 0.85, 0.25
DRAG_ARM, DRAG_Z, DRAG_Y = 0.2, 0.2, KINGPIN_Y - 0.2
PITMAN_X, PITMAN_ARM = 1.0, 0.25
STEERING_RATIO = -DRAG_ARM / PITMAN_ARM  # pitman angle per road-wheel steer angle

# Masses (kg) and inertias (kg m^2) of the unsprung parts.
M_ARM, I_ARM = 40.0, (0.5, 1.5, 1.5)
# Each trailing arm's pivot sits in a bushing bracket that slides sideways on the frame against
# a stiff spring-damper: the axle's lateral compliance (one degree of freedom per axle).
M_BUSHING, I_BUSHING, LATERAL_RATE, LATERAL_DAMPING = 10.0, (0.05, 0.05, 0.05), 5.0e6, 3.0e4
M_BAR, I_BAR = 10.0, (0.8, 0.3, 0.9)  # centre of mass on the hinge axis
M_PITMAN, I_PITMAN = 5.0, (0.05, 0.05, 0.05)
M_KNUCKLE, I_KNUCKLE = 60.0, (2.0, 2.0, 1.5)
AXLES = {  # kind: axle mass, inertia, wheel mass, wheel inertia
    "front": (600.0, (200.0, 20.0, 200.0), 120.0, (10.0, 18.0, 10.0)),
    "drive": (900.0, (300.0, 30.0, 300.0), 200.0, (16.0, 30.0, 16.0)),
    "trailer": (700.0, (250.0, 25.0, 250.0), 200.0, (16.0, 30.0, 16.0)),
}
# Suspension per side: front leaf springs; air springs with coaxial dampers elsewhere.
LEAF_RATE, LEAF_DAMPING, LEAF_FRICTION, LEAF_SLIP = 3.0e5, 12000.0, 1000.0, 0.02
AIR = {"drive": (0.09, 0.04), "trailer": (0.05, 0.03)}  # effective area m^2, volume m^3
AIR_EXPONENT, AIR_DAMPING = 1.4, 10000.0
ROLL_STIFFNESS = {"front": 1.5e5, "drive": 2.5e5, "trailer": 2.5e5}  # bar's N m/rad at the axle


def bar_torsion(roll_stiffness):
    """Torsion stiffness of the bar giving the axle the roll stiffness k_t (2 BAR_Y / BAR_X)^2."""
    return roll_stiffness * (BAR_X / (2 * BAR_Y)) ** 2


def unsprung(kind):
    """The weight an axle puts on its tyres besides its springs' load: axle, wheels, knuckles,
    and half of the trailing arm (the other half hangs on the pivot)."""
    m_axle, _, m_wheel, _ = AXLES[kind]
    knuckles = 2 * M_KNUCKLE if kind == "front" else 0.0
    return (m_axle + 2 * m_wheel + knuckles + M_ARM / 2) * G


def cab_mount_loads():
    """Each front and each rear cab mount's load: the cab's weight split by its lever arms."""
    front, rear = CAB_MOUNT_X
    w = M_CAB * G / 2
    return w * (0.0 - rear) / (front - rear), w * (front - 0.0) / (front - rear)


def solve_statics():
    """Springs' load per axle (both sides) for the tractor's front, its drive axles (alike) and the
    three trailer axles (alike), and the kingpin load."""
    # Semi-trailer about the kingpin: weights (trailer, arm halves and bushings, bars) against 3
    # axle loads.
    weights = [(M_TRAILER * G, KINGPIN[0] + TRAILER_COM[0])]
    for x in X_TRAILER:
        weights += [((M_ARM / 2 + M_BUSHING) * G, x + ARM), (2 * M_BAR * G, x + BAR_X)]
    w_total = sum(w for w, _ in weights)
    s_trailer = sum(w * (x - KINGPIN[0]) for w, x in weights) / sum(x - KINGPIN[0] for x in X_TRAILER)
    kingpin = w_total - 3 * s_trailer
    # Tractor: front S_f at X_FRONT, drive S_r at each X_REAR; loads: chassis, cab, kingpin, arm
    # halves and bushings, bars, pitman arm.
    weights = [(M_CHASSIS * G, 0.0), (M_CAB * G, CAB_ORIGIN[0]), (kingpin, KINGPIN[0]),
               (M_PITMAN * G, X_FRONT + PITMAN_X)]
    for x in (X_FRONT,) + X_REAR:
        weights += [((M_ARM / 2 + M_BUSHING) * G, x + ARM), (2 * M_BAR * G, x + BAR_X)]
    force = sum(w for w, _ in weights)
    moment = sum(w * x for w, x in weights)
    # S_f + n S_r = force, S_f X_FRONT + S_r sum(X_REAR) = moment.
    n = len(X_REAR)
    s_drive = (moment - force * X_FRONT) / (sum(X_REAR) - n * X_FRONT)
    s_front = force - n * s_drive
    return {"front": s_front, "drive": s_drive, "trailer": s_trailer}, kingpin


def fmt(x):
    return f"{x:.10g}"


def vec(v):
    return "[" + ", ".join(fmt(x) for x in v) + "]"


class Writer:
    def __init__(self, loads):
        self.loads = loads
        self.bodies, self.joints, self.loops, self.forces, self.markers = [], [], [], [], []

    def body(self, name, mass, inertia, com=None, shape=None):
        line = f"  - {{name: {name}, mass: {fmt(mass)}, inertia: {vec(inertia)}"
        if com:
            line += f", com: {vec(com)}"
        if shape:
            line += f",\n     shape: {shape}"
        self.bodies.append(line + "}")

    def joint(self, name, kind, parent, child, xyz, axis=None, q=None, v=None):
        line = f"  - {{name: {name}, type: {kind}, parent: {parent}, child: {child}, xyz: {vec(xyz)}"
        if axis:
            line += f", axis: {vec(axis)}"
        if q is not None:
            line += f", q: {vec(q) if isinstance(q, (list, tuple)) else fmt(q)}"
        if v is not None:
            line += f", v: {vec(v) if isinstance(v, (list, tuple)) else fmt(v)}"
        self.joints.append(line + "}")

    def spring(self, name, a, pa, b, pb, stiffness, damping, rest):
        self.forces.append(f"  - {{name: {name}, type: spring_damper, body_a: {a}, point_a: {vec(pa)}, body_b: {b}, "
                           f"point_b: {vec(pb)}, stiffness: {fmt(stiffness)}, damping: {fmt(damping)}, "
                           f"rest_length: {fmt(rest)}}}")

    def cab(self):
        """The cab on its free joint above the chassis, its mounts and rods (the constants' comment)."""
        cx, cz = CAB_ORIGIN
        self.body("cab", M_CAB, I_CAB, com=(0, 0, CAB_COM_Z),
                  shape=f'{{type: box, size: [2.2, 2.4, 2.4], xyz: [0, 0, {fmt(CAB_COM_Z + 0.1)}], color: "#c0392b"}}')
        self.joint("cab_suspension", "free", "chassis", "cab", (cx, 0, cz), q=(0, 0, 0, 1, 0, 0, 0))
        low = cz - CAB_MOUNT_LENGTH  # the mounts' lower ends, on the chassis
        for (end, mx), load in zip((("front", CAB_MOUNT_X[0]), ("rear", CAB_MOUNT_X[1])), cab_mount_loads()):
            for side, sy in (("left", 1), ("right", -1)):
                self.spring(f"cab_mount_{end}_{side}", "chassis", (cx + mx, sy * CAB_MOUNT_Y, low), "cab",
                            (mx, sy * CAB_MOUNT_Y, 0), CAB_MOUNT_RATE, CAB_MOUNT_DAMPING,
                            CAB_MOUNT_LENGTH + load / CAB_MOUNT_RATE)
            # Lateral rod: from the chassis on the right to the cab on the left, level.
            self.spring(f"cab_rod_{end}", "chassis", (cx + mx, -CAB_ROD / 2, low + 0.05), "cab",
                        (mx, CAB_ROD / 2, 0.05 - CAB_MOUNT_LENGTH), CAB_ROD_RATE, CAB_ROD_DAMPING, CAB_ROD)
        rear = CAB_MOUNT_X[1]
        self.spring("cab_rod_longitudinal", "chassis", (cx + rear - CAB_ROD, 0, low + 0.05), "cab",
                    (rear, 0, 0.05 - CAB_MOUNT_LENGTH), CAB_ROD_RATE, CAB_ROD_DAMPING, CAB_ROD)

    def distance(self, name, a, pa, b, pb, d):
        self.loops.append(f"  - {{name: {name}, type: distance, body_a: {a}, point_a: {vec(pa)}, body_b: {b}, "
                          f"point_b: {vec(pb)}, distance: {fmt(d)}}}")

    def axle(self, label, kind, frame, frame_origin, x):
        """An axle at world x under the body `frame` (whose origin is at world frame_origin)."""
        load = self.loads[kind]
        m_axle, i_axle, m_wheel, i_wheel = AXLES[kind]
        wheel_load = (load + unsprung(kind)) / 2
        z = R0 - wheel_load / K_TYRE[kind]  # the axle centre, at the wheel centres' height
        rel = lambda px, py, pz: (px - frame_origin[0], py, pz - frame_origin[1])
        arm, axle, bushing = f"arm_{label}", f"axle_{label}", f"bushing_{label}"
        self.body(bushing, M_BUSHING, I_BUSHING,
                  shape=f'{{type: box, size: [0.1, 0.2, 0.1], color: "#444444"}}')
        self.body(arm, M_ARM, I_ARM, com=(-ARM / 2, 0, 0),
                  shape=f'{{type: box, size: [{fmt(ARM)}, 0.08, 0.08], xyz: [{fmt(-ARM / 2)}, 0, 0], color: "#555555"}}')
        self.body(axle, m_axle, i_axle,
                  shape=f'{{type: box, size: [0.15, {fmt(2 * KINGPIN_Y)}, 0.15], color: "#666666"}}')
        self.joint(f"lateral_{label}", "prismatic", frame, bushing, rel(x + ARM, 0, z), axis=(0, 1, 0))
        self.forces.append(f"  - {{name: lateral_bushing_{label}, type: joint_spring_damper, joint: lateral_{label}, "
                           f"stiffness: {fmt(LATERAL_RATE)}, damping: {fmt(LATERAL_DAMPING)}}}")
        self.joint(f"arm_pivot_{label}", "revolute", bushing, arm, (0, 0, 0), axis=(0, 1, 0))
        self.joint(f"axle_ball_{label}", "spherical", arm, axle, (-ARM, 0, 0))
        for side, sy in (("left", 1), ("right", -1)):
            self.distance(f"torque_rod_{label}_{side}", frame, rel(x + ARM, sy * ROD_Y, z + ROD_Z), axle,
                          (0, sy * ROD_Y, ROD_Z), ARM)
        # Wheels (the front ones on steered knuckles).
        wheel_shape = '{type: cylinder, radius: 0.5, length: 0.3, rpy: [1.5707963267948966, 0, 0], color: "#222222"}'
        spin = SPEED / z
        steer_rate = STEER_AMPLITUDE * 2 * math.pi * STEER_FREQUENCY
        for side, sy in (("left", 1), ("right", -1)):
            wheel = f"wheel_{label}_{side}"
            self.body(wheel, m_wheel, i_wheel, shape=wheel_shape)
            if kind == "front":
                knuckle = f"knuckle_{side}"
                self.body(knuckle, M_KNUCKLE, I_KNUCKLE,
                          shape='{type: box, size: [0.1, 0.1, 0.4], color: "#777777"}')
                self.joint(f"kingpin_{side}", "revolute", axle, knuckle, (0, sy * KINGPIN_Y, 0), axis=(0, 0, 1),
                           v=steer_rate)
                self.joint(f"hub_{label}_{side}", "revolute", knuckle, wheel, (0, sy * (TRACK_HALF - KINGPIN_Y), 0),
                           axis=(0, 1, 0), v=spin)
            else:
                self.joint(f"hub_{label}_{side}", "revolute", axle, wheel, (0, sy * TRACK_HALF, 0), axis=(0, 1, 0),
                           v=spin)
            self.forces.append(f"  - {{name: tyre_{label}_{side}, type: tyre, body: {wheel}, axis: [0, 1, 0], "
                               f"radius: {fmt(R0)}, radial_stiffness: {fmt(K_TYRE[kind])}, radial_damping: {fmt(C_TYRE)}, "
                               f"rolling_resistance: {fmt(F_ROLL)}, magic_formula: truck}}")
            self.markers.append(f"  - {{name: {wheel}_centre, body: {wheel}, position: [0, 0, 0]}}")
        # Springs: vertical from the axle to the frame above it, carrying load / 2 each.
        for side, sy in (("left", 1), ("right", -1)):
            ends = (f"body_a: {axle}, point_a: {vec((0, sy * SPRING_Y, SPRING_Z))}, body_b: {frame}, "
                    f"point_b: {vec(rel(x, sy * SPRING_Y, z + SPRING_Z + DESIGN_LENGTH))}")
            if kind == "front":
                rest = DESIGN_LENGTH + load / 2 / LEAF_RATE
                self.forces.append(f"  - {{name: leaf_spring_{side}, type: leaf_spring, {ends},\n     "
                                   f"stiffness: {fmt(LEAF_RATE)}, rest_length: {fmt(rest)}, damping: {fmt(LEAF_DAMPING)}, "
                                   f"interleaf_friction: {{force: {fmt(LEAF_FRICTION)}, slip_velocity: {fmt(LEAF_SLIP)}}}}}")
            else:
                area, volume = AIR[kind]
                self.forces.append(f"  - {{name: air_spring_{label}_{side}, type: air_spring, {ends},\n     "
                                   f"area: {fmt(area)}, volume: {fmt(volume)}, pressure: {fmt(load / 2 / area)}, "
                                   f"length: {fmt(DESIGN_LENGTH)}, exponent: {fmt(AIR_EXPONENT)}, "
                                   f"damping: {fmt(AIR_DAMPING)}}}")
        # Anti-roll bar: half bars hinged on the frame and on each other, a torsion spring between.
        bar_left, bar_right = f"bar_{label}_left", f"bar_{label}_right"
        for bar, sy in ((bar_left, 1), (bar_right, -1)):
            self.body(bar, M_BAR, I_BAR,
                      shape=f'{{type: box, size: [0.04, {fmt(BAR_Y)}, 0.04], xyz: [0, {fmt(sy * BAR_Y / 2)}, 0], '
                            f'color: "#aa8844"}}')
        self.joint(f"bar_mount_{label}", "revolute", frame, bar_left, rel(x + BAR_X, 0, z + BAR_Z), axis=(0, 1, 0))
        self.joint(f"bar_twist_{label}", "revolute", bar_left, bar_right, (0, 0, 0), axis=(0, 1, 0))
        self.forces.append(f"  - {{name: anti_roll_bar_{label}, type: joint_spring_damper, joint: bar_twist_{label}, "
                           f"stiffness: {fmt(bar_torsion(ROLL_STIFFNESS[kind]))}}}")
        for bar, sy, side in ((bar_left, 1, "left"), (bar_right, -1, "right")):
            self.distance(f"droplink_{label}_{side}", bar, (-BAR_X, sy * BAR_Y, 0), axle, (0, sy * BAR_Y, SPRING_Z),
                          DROPLINK)
        return z


def main():
    loads, kingpin = solve_statics()
    w = Writer(loads)
    tractor = (0.0, H_TRACTOR)  # world x, z of the chassis frame
    # The pitman arm's weight hangs at y = DRAG_Y: the chassis's centre of mass sits opposite, so
    # that the tractor stands level (the frame is at the centre of mass of chassis and pitman arm).
    w.body("chassis", M_CHASSIS, I_CHASSIS, com=(0, -M_PITMAN * DRAG_Y / M_CHASSIS, 0),
           shape='{type: box, size: [6.5, 1.0, 0.3], xyz: [-0.8, 0, 0], color: "#3a6ea5"}')
    w.joint("body", "free", "ground", "chassis", (0, 0, 0), q=(0, 0, H_TRACTOR, 1, 0, 0, 0), v=(0, 0, 0, SPEED, 0, 0))
    w.cab()
    trailer_origin = KINGPIN
    w.body("trailer", M_TRAILER, I_TRAILER, com=(TRAILER_COM[0], 0, TRAILER_COM[1] - KINGPIN[1]),
           shape='{type: box, size: [13.6, 2.5, 2.8], xyz: [-6.3, 0, 1.55], color: "#9fb8d6"}')
    w.joint("fifth_wheel", "spherical", "chassis", "trailer", (KINGPIN[0], 0, KINGPIN[1] - H_TRACTOR))
    z_front = w.axle("front", "front", "chassis", tractor, X_FRONT)
    for k, x in enumerate(X_REAR):
        w.axle(f"drive{k + 1}", "drive", "chassis", tractor, x)
    for k, x in enumerate(X_TRAILER):
        w.axle(f"trailer{k + 1}", "trailer", "trailer", trailer_origin, x)
    # Steering: a pitman arm hinged on the chassis, its angle prescribed, a drag link to the left
    # knuckle's upper arm and a track rod between the knuckles' arms.
    w.body("pitman_arm", M_PITMAN, I_PITMAN,
           shape=f'{{type: box, size: [0.04, 0.04, {fmt(PITMAN_ARM)}], xyz: [0, 0, {fmt(-PITMAN_ARM / 2)}]}}')
    pitman_rate = STEERING_RATIO * STEER_AMPLITUDE * 2 * math.pi * STEER_FREQUENCY
    w.joint("steering", "revolute", "chassis", "pitman_arm",
            (X_FRONT + PITMAN_X, DRAG_Y, z_front + DRAG_Z + PITMAN_ARM - H_TRACTOR), axis=(0, 1, 0), v=pitman_rate)
    w.distance("drag_link", "pitman_arm", (0, 0, -PITMAN_ARM), "knuckle_left", (0, -(KINGPIN_Y - DRAG_Y), DRAG_Z), PITMAN_X)
    w.distance("track_rod", "knuckle_left", (-TRACK_ARM, 0, 0), "knuckle_right", (-TRACK_ARM, 0, 0), 2 * KINGPIN_Y)
    w.forces.insert(0, f"  - {{name: steering_input, type: prescribed_motion, joint: steering, position: "
                       f"{{type: sine, amplitude: {fmt(STEERING_RATIO * STEER_AMPLITUDE)}, "
                       f"frequency: {fmt(STEER_FREQUENCY)}}}}}")
    # Drive: a constant torque on the four drive wheels that balances the rolling resistance of the
    # whole truck on level road (f_r m g at the contacts, the drive wheels' loaded radius).
    kinds = ["front"] + ["drive"] * len(X_REAR) + ["trailer"] * len(X_TRAILER)
    total_weight = (M_CHASSIS + M_CAB + M_TRAILER + M_PITMAN + len(kinds) * (M_ARM + M_BUSHING + 2 * M_BAR)) * G + sum(
        unsprung(k) - M_ARM / 2 * G for k in kinds)
    rho_drive = R0 - (loads["drive"] + unsprung("drive")) / 2 / K_TYRE["drive"]
    torque = F_ROLL * total_weight * rho_drive / (2 * len(X_REAR))
    for k in range(1, len(X_REAR) + 1):
        for side in ("left", "right"):
            w.forces.append(f"  - {{name: drive_drive{k}_{side}, type: joint_force, joint: hub_drive{k}_{side}, "
                            f"magnitude: {fmt(torque)}}}")
    w.markers[:0] = ["  - {name: tractor_centre, body: chassis, position: [0, 0, 0]}",
                     f"  - {{name: trailer_centre, body: trailer, position: {vec((TRAILER_COM[0], 0, TRAILER_COM[1] - KINGPIN[1]))}}}",
                     f"  - {{name: fifth_wheel, body: chassis, position: {vec((KINGPIN[0], 0, KINGPIN[1] - H_TRACTOR))}}}"]
    header = f"""# A 5-axle semi-trailer truck like seed 004's (section 4), written by scripts/truck_model.py (edit
# the script, not this file; docs/vehicles.md "The truck"). z up, x forward, y to the left; SI units.
#
# Tractor (chassis {fmt(M_CHASSIS)} kg on a free joint, a {fmt(M_CAB)} kg cab on its own free joint and
# spring-dampers above it) with a steered front axle on leaf springs and {len(X_REAR)} driven rear axle(s)
# on air springs; semi-trailer ({fmt(M_TRAILER)} kg) on a spherical fifth wheel, three axles on air
# springs. Each beam axle hangs on a central trailing arm (revolute on a bushing bracket that slides
# sideways on the frame against a spring-damper, spherical at the axle) and two torque rods
# (distance loops): lateral compliance, heave and roll. Each has an anti-roll
# bar (two half bars, a torsion spring, two droplinks) and Magic Formula tyres (the truck set). The
# steering's pitman arm turns by a prescribed sine (steer {fmt(STEER_AMPLITUDE)} rad at {fmt(STEER_FREQUENCY)} Hz at the road
# wheels): a multiple slalom at {fmt(SPEED)} m/s, a drive torque on the rear axles balancing the rolling
# resistance. The drive axle's twin tyres are lumped into one tyre of twice the radial stiffness.
#
# Initial state: the static equilibrium, by construction (the script solves the statics; springs'
# loads per axle: front {fmt(loads['front'])} N, drive {fmt(loads['drive'])} N, trailer {fmt(loads['trailer'])} N;
# fifth wheel {fmt(kingpin)} N), moving at {fmt(SPEED)} m/s with the wheels rolling.
name: truck
gravity: [0, 0, -9.81]
"""
    out = [header, "bodies:", *w.bodies, "joints:", *w.joints, "loops:", *w.loops, "forces:", *w.forces,
           "road: {type: flat}", "markers:", *w.markers]
    print("\n".join(out))


if __name__ == "__main__":
    main()
