#!/usr/bin/env python3
"""Adds VRMC_springBone 1.0 chains to the shared skinned models (Fox,
CesiumMan, RiggedFigure under ../shared/data/gltf/khronos) and writes each
as a small skeleton-only glTF under lib/anim/test/data/springs/.

What a document keeps of its model: the nodes (names, transforms,
children), skin 0's joints (no inverse binds: a skeleton needs none) and
the scene; meshes, accessors, buffers and animations are left out. What it
adds: a hair chain of four new nodes under the head (joints of the skin),
a tail (Fox's own three tail bones; a new four-node chain under the hips of
the two figures), and colliders of every kind VRMC_springBone and
VRMC_springBone_extended_collider 1.0 give: a sphere on the head, a
capsule along the spine, an inside sphere and an inside capsule around
the body (with far-away fallbacks) and a floor plane (with a large-sphere
fallback), sized from the skeleton's extent. The hair's first joint has a
VRMC_springBone_limit 1.0 cone, the tail's a spherical limit.

Run from the project root:  python3 tools/springs/add_springs.py
(deterministic: the same input gives the same bytes)."""
import json
import math
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data", "gltf", "khronos")
OUT = os.path.join(ROOT, "lib", "anim", "test", "data", "springs")

# model: (glb path, head, hips, spine, existing tail chain or None)
MODELS = {
    "Fox": ("Fox/glTF-Binary/Fox.glb", "b_Head_05", "b_Hip_01", "b_Spine02_03",
            ["b_Tail01_012", "b_Tail02_013", "b_Tail03_014"]),
    "CesiumMan": ("CesiumMan/glTF-Binary/CesiumMan.glb", "Skeleton_neck_joint_2", "Skeleton_torso_joint_1",
                  "torso_joint_3", None),
    "RiggedFigure": ("RiggedFigure/glTF-Binary/RiggedFigure.glb", "neck_joint_2", "torso_joint_1",
                     "torso_joint_3", None),
}


def read_glb_json(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"glTF":
        raise SystemExit(path + ": not a GLB")
    n = struct.unpack("<I", b[12:16])[0]
    return json.loads(b[20:20 + n])


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]


def qrot(q, v):
    p = qmul(qmul(q, [v[0], v[1], v[2], 0.0]), [-q[0], -q[1], -q[2], q[3]])
    return p[:3]


def world_positions(nodes):
    """Each node's world position and rotation (TRS nodes; a matrix node's
    translation column only, which these models do not use)."""
    parent = {}
    for i, n in enumerate(nodes):
        for c in n.get("children", []):
            parent[c] = i
    out = {}

    def solve(i):
        if i in out:
            return out[i]
        n = nodes[i]
        t = n.get("translation", [0, 0, 0])
        r = n.get("rotation", [0, 0, 0, 1])
        s = n.get("scale", [1, 1, 1])
        if "matrix" in n:
            t = n["matrix"][12:15]
        if i in parent:
            pp, pr, ps = solve(parent[i])
            p = [a + b for a, b in zip(pp, qrot(pr, [t[0] * ps[0], t[1] * ps[1], t[2] * ps[2]]))]
            out[i] = (p, qmul(pr, r), [ps[0] * s[0], ps[1] * s[1], ps[2] * s[2]])
        else:
            out[i] = (list(t), list(r), list(s))
        return out[i]

    for i in range(len(nodes)):
        solve(i)
    return out


def r6(x):
    return float("%.6g" % x)


def make(name, spec):
    path, head, hips, spine, tail = spec
    src = read_glb_json(os.path.join(SHARED, path))
    keep = ("name", "translation", "rotation", "scale", "matrix", "children")
    nodes = [{k: n[k] for k in keep if k in n} for n in src["nodes"]]
    joints = list(src["skins"][0]["joints"])
    index = {n.get("name"): i for i, n in enumerate(nodes)}
    world = world_positions(nodes)
    # The skeleton's extent (largest axis of its joints' box), the unit of
    # every size below; and each joint's world scale (sizes are local).
    pts = [world[j][0] for j in joints]
    extent = max(max(p[a] for p in pts) - min(p[a] for p in pts) for a in range(3))

    def local(node, length):
        s = world[node][2]
        return r6(length / max(abs(s[0]), abs(s[1]), abs(s[2])))

    def add_chain(parent_name, prefix, count, step):
        """count new nodes under parent, each step (world length) down."""
        parent = index[parent_name]
        made = []
        for k in range(count):
            # The segment in the parent's frame: straight down the world's -Y
            # turned into the parent's rotation and scale.
            p, r, s = world[parent]
            inv = [-r[0], -r[1], -r[2], r[3]]
            d = qrot(inv, [0.0, -step, 0.0] if k else [0.0, 0.0, -step])
            t = [r6(d[a] / s[a]) for a in range(3)]
            node = {"name": "%s%d" % (prefix, k + 1), "translation": t}
            nodes.append(node)
            i = len(nodes) - 1
            nodes[parent].setdefault("children", []).append(i)
            joints.append(i)
            index[node["name"]] = i
            world[i] = (
                [a + b for a, b in zip(p, qrot(r, [t[0] * s[0], t[1] * s[1], t[2] * s[2]]))], list(r), list(s))
            made.append(i)
            parent = i
        return made

    hair = add_chain(head, "hair", 4, 0.06 * extent)
    tail_nodes = [index[n] for n in tail] if tail else add_chain(hips, "tail", 4, 0.08 * extent)
    h, b, sp = index[head], index[hips], index[spine]
    far = local(b, 100.0 * extent)
    colliders = [
        {"node": h, "shape": {"sphere": {"offset": [0, 0, 0], "radius": local(h, 0.08 * extent)}}},
        {"node": sp, "shape": {"capsule": {"offset": [0, 0, 0], "radius": local(sp, 0.06 * extent),
                                           "tail": [0, local(sp, 0.15 * extent), 0]}}},
        {"node": b, "shape": {"sphere": {"offset": [0, -far, 0], "radius": 0}},
         "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": {
             "sphere": {"offset": [0, 0, 0], "radius": local(b, 1.5 * extent), "inside": True}}}}},
        {"node": b, "shape": {"sphere": {"offset": [0, -far, 0], "radius": 0}},
         "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": {
             "capsule": {"offset": [0, 0, 0], "tail": [0, local(b, extent), 0], "radius": local(b, 1.2 * extent),
                         "inside": True}}}}},
        {"node": b, "shape": {"sphere": {"offset": [0, -far, 0], "radius": far}},
         "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": {
             "plane": {"offset": [0, -local(b, 0.5 * extent), 0], "normal": [0, 1, 0]}}}}},
    ]
    cone = {"VRMC_springBone_limit": {"specVersion": "1.0", "limit": {"cone": {"angle": 0.8}}}}
    spherical = {"VRMC_springBone_limit": {"specVersion": "1.0",
                                           "limit": {"spherical": {"pitch": 0.7, "yaw": 0.5}}}}

    def joint(node, k, limit):
        j = {"node": node, "hitRadius": r6(0.01 * extent), "stiffness": 0.8, "gravityPower": 0.3,
             "gravityDir": [0, -1, 0], "dragForce": 0.4}
        if k == 0 and limit:
            j["extensions"] = limit
        return j

    doc = {
        "asset": {"version": "2.0", "generator": "Maul tools/springs/add_springs.py from Khronos %s" % name},
        "extensionsUsed": ["VRMC_springBone", "VRMC_springBone_extended_collider", "VRMC_springBone_limit"],
        "scene": 0,
        "scenes": [{"nodes": src["scenes"][src.get("scene", 0)]["nodes"]}],
        "nodes": nodes,
        "skins": [{"joints": joints}],
        "extensions": {"VRMC_springBone": {
            "specVersion": "1.0",
            "colliders": colliders,
            "colliderGroups": [{"name": "head", "colliders": [0]}, {"name": "body", "colliders": [1, 2, 3, 4]}],
            "springs": [
                {"name": "hair", "joints": [joint(n, k, cone) for k, n in enumerate(hair)], "colliderGroups": [0, 1],
                 "center": h},
                {"name": "tail", "joints": [joint(n, k, spherical) for k, n in enumerate(tail_nodes)],
                 "colliderGroups": [1]},
            ]}},
    }
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + "-springs.gltf"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    if not os.path.isdir(SHARED):
        sys.exit("../shared/data/gltf/khronos not present")
    for name, spec in MODELS.items():
        make(name, spec)


if __name__ == "__main__":
    main()
